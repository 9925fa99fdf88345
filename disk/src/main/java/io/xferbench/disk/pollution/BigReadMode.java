package io.xferbench.disk.pollution;

import io.xferbench.core.read.DontCacheEngine;
import io.xferbench.core.read.JdkDirectEngine;
import io.xferbench.core.read.JnaDirectEngine;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.SyncChannelEngine;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How the big file is read while the hot set is served. Four are core.read engines run sequentially at depth 1;
 * the fadvise mode is {@link DontNeedBehindReader}, which no engine table needs.
 */
enum BigReadMode {
    /** pread64 through the page cache: every page read is charged to the cgroup and competes with the hot set. */
    BUFFERED("buffered-read", new SyncChannelEngine()),
    /** Buffered pread, then POSIX_FADV_DONTNEED on what was read: the cache holds only a window of the file. */
    BUFFERED_DONTNEED("buffered-fadvise-dontneed", null),
    /** O_DIRECT through the JNA shim: the device DMAs into our buffer, the page cache is not used. */
    ODIRECT_JNA("odirect-jna", new JnaDirectEngine()),
    /** O_DIRECT through ExtendedOpenOption.DIRECT. */
    ODIRECT_JDK("odirect-jdk", new JdkDirectEngine()),
    /**
     * preadv2 with RWF_DONTCACHE (Linux 6.14): buffered, read-ahead kept, but the pages the read brings in leave the
     * cache once read; skipped with the probe's reason where the kernel or the file system has no such flag.
     */
    DONTCACHE("dontcache", new DontCacheEngine());

    final String id;
    /** Null for the mode that is not an engine. */
    final ReadEngine engine;

    BigReadMode(String id, ReadEngine engine) {
        this.id = id;
        this.engine = engine;
    }

    static Optional<BigReadMode> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
    }

    static List<String> ids() {
        return Arrays.stream(values()).map(m -> m.id).toList();
    }
}
