package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;

/**
 * RLIMIT_MEMLOCK in words: registered buffers are pinned pages, counted against it unless the process has
 * CAP_IPC_LOCK, so an ENOMEM from IORING_REGISTER_BUFFERS is most often this limit.
 */
final class MemoryLock {
    private static final long INFINITY = -1L;

    private MemoryLock() {
    }

    /** "RLIMIT_MEMLOCK 8 MiB (ulimit -l 8192)", "RLIMIT_MEMLOCK unlimited". */
    static String describe() {
        long[] limit = new long[2];
        try {
            UringCalls.getrlimit(UringCalls.RLIMIT_MEMLOCK, limit);
        } catch (LastErrorException e) {
            return "RLIMIT_MEMLOCK unknown";
        }
        if (limit[0] == INFINITY) {
            return "RLIMIT_MEMLOCK unlimited";
        }
        return "RLIMIT_MEMLOCK " + limit[0] + " bytes (ulimit -l " + limit[0] / 1024 + ")";
    }
}
