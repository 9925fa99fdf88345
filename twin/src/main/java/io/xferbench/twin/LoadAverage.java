package io.xferbench.twin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The 1, 5 and 15 minute load averages, shown before and after a run: another load on the machine skews both sides. */
final class LoadAverage {
    private LoadAverage() {
    }

    static String now() {
        try {
            String[] p = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return p[0] + " " + p[1] + " " + p[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
