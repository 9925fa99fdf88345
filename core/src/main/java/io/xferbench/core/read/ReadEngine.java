package io.xferbench.core.read;

import java.io.IOException;

/**
 * One way to read blocks of a file. Implementations are stateless between runs; {@link #read} returns when
 * every op of the plan has completed, and throws on a short read (files are read within their size).
 * Extension point: io_uring readers (package io.xferbench.core.iouring) implement this interface and are listed
 * in {@link ReadEngines}.
 */
public interface ReadEngine {
    /** Stable name used in result rows, e.g. "sync-pread". */
    String name();

    /** True when the engine bypasses the page cache (O_DIRECT). */
    boolean direct();

    /** Null when the engine can run {@code spec} here, else why not (e.g. O_DIRECT alignment, missing JNA). */
    default String unsupported(ReadSpec spec) {
        return null;
    }

    ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException;
}
