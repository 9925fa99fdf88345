package io.xferbench.jmh;

import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Where benchmark files live: {@code $XFERBENCH_JMH_DATA}, else {@code <java.io.tmpdir>/xferbench-jmh-data}.
 * An environment variable, because JMH forks inherit the environment but not the host's system properties.
 * The directory must be on a disk file system (not tmpfs) for the O_DIRECT variants. Files are generated
 * once with deterministic content and reused by later runs.
 */
public final class BenchData {
    public static final String ENV = "XFERBENCH_JMH_DATA";

    private BenchData() {
    }

    public static Path dir() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "xferbench-jmh-data");
    }

    public static DataDirectory open() throws IOException {
        return new DataDirectory(dir());
    }
}
