package io.xferbench.core.read;

import java.io.IOException;
import java.util.List;

/**
 * One way to read blocks of a file. Implementations are stateless between runs; {@link #read} returns when
 * every op of the plan has completed, and throws on a short read (files are read within their size).
 * A new engine is one class implementing this, listed in {@link ReadEngines}.
 */
public interface ReadEngine {
    /** Stable name used in result rows, e.g. "sync-pread". */
    String name();

    /**
     * The fio ioengine of the same shape, run next to this engine in the disk table (threads for psync and mmap,
     * requests in flight for the others), or null when fio has none.
     */
    String fioEngine();

    /** Flags fio's twin runs with on top of its ioengine, e.g. {@code --fixedbufs}; none by default. */
    default List<String> fioOptions() {
        return List.of();
    }

    /** True when the engine bypasses the page cache (O_DIRECT). */
    boolean direct();

    /** Null when the engine can run {@code spec} here, else why not (e.g. O_DIRECT alignment, missing JNA). */
    default String unsupported(ReadSpec spec) {
        return null;
    }

    ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException;
}
