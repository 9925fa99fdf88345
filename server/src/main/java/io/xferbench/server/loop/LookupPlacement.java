package io.xferbench.server.loop;

/**
 * Where an event-loop model looks a file up: a download's or HEAD's open (with fstat and checksum-record lookup) and
 * a STAT. The rest of the file work runs on the model's pool in every case (see {@link EventLoopConnection}).
 */
public enum LookupPlacement {
    /** On the pool of platform threads: the loop never waits for the file system, but pays a hand-off each way. */
    POOL,
    /** On the loop itself, as nginx opens files: a cold-metadata lookup blocks the loop and every connection on it. */
    LOOP,
    /**
     * On the loop's io_uring ring (an {@code OPENAT} or {@code STATX}), then the descriptor's fstat and a checksum
     * record remembered in memory on the loop: the kernel walks cached dentries inline and hands a walk that would
     * block to an io-wq worker; what the ring cannot settle (a name with '/', a symlink, a record not in memory) goes
     * to the pool.
     */
    RING
}
