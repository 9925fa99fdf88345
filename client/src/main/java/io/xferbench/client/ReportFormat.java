package io.xferbench.client;

import java.util.Locale;

/** The renderings of a report, and the file extension each gets when several are written beside one another. */
enum ReportFormat {
    TABLE("txt"), JSON("json"), CSV("csv"), MARKDOWN("md"), HTML("html");

    final String extension;

    ReportFormat(String extension) {
        this.extension = extension;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
