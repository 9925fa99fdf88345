package io.xferbench.client.render;

import java.util.Locale;

/** The renderings of a report, and the file extension each gets when several are written beside one another. */
public enum ReportFormat {
    TABLE("txt"), JSON("json"), CSV("csv"), MARKDOWN("md"), HTML("html");

    public final String extension;

    ReportFormat(String extension) {
        this.extension = extension;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
