package io.xferbench.jmh;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TempFiles;
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
        return open(dir());
    }

    /**
     * The directory, without the temp files of generations whose JVM was killed (a SIGKILLed run or fork left one,
     * up to the file's size); a live JVM's are kept.
     */
    static DataDirectory open(Path dir) throws IOException {
        DataDirectory data = new DataDirectory(dir);
        for (TempFiles.Removed r : data.removeStaleTempFiles()) {
            System.err.println("xferbench-jmh: removed " + r.path() + " (" + r.bytes() + " bytes), left by a run that was killed");
        }
        return data;
    }
}
