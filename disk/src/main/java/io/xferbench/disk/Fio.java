package io.xferbench.disk;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where fio is (PATH), or why the fio rows are skipped. */
final class Fio {
    private Fio() {
    }

    static String path() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "fio");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    static String missingReason() {
        return "fio is not installed (apt-get install -y fio)";
    }
}
