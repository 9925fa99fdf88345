package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The C twins of native/c built for a test with gcc (and liburing where asked). */
final class TwinBinaries {
    private static final Path SOURCES = Path.of("..", "native", "c");

    private TwinBinaries() {
    }

    /** gcc -O2 SOURCE into {@code dir}, once; the test is skipped (or failed on CI) without gcc or liburing. */
    static synchronized Path built(Path dir, String source, String binary, String... libs) throws Exception {
        Path out = dir.resolve(binary);
        if (Files.isExecutable(out)) {
            return out;
        }
        if (libs.length > 0 && !Files.exists(Path.of("/usr/include/liburing.h"))) {
            MethodAssumptions.assumeAvailable(binary, Availability.unavailable(
                    "liburing-dev is missing (/usr/include/liburing.h), needed to build the C twin"));
        }
        List<String> cmd = new java.util.ArrayList<>(List.of("gcc", "-O2", "-Wall", "-Wextra", "-o", out.toString(),
                SOURCES.resolve(source).toString()));
        cmd.addAll(List.of(libs));
        Process gcc;
        try {
            gcc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            MethodAssumptions.assumeAvailable(binary, Availability.unavailable("gcc is missing, needed to build the C twin: " + e.getMessage()));
            throw e;
        }
        String log = new String(gcc.getInputStream().readAllBytes());
        assertThat(gcc.waitFor()).as("gcc " + source + ": " + log).isZero();
        return out;
    }
}
