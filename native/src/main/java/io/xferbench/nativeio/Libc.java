package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * JNA direct mapping of the libc calls the suite needs. Direct mapping (not interface mapping) keeps the
 * per-call overhead near a JNI call, which matters when the calls sit on a benchmarked path.
 * Methods throw {@link LastErrorException} on failure; callers turn that into {@link NativeException}.
 */
final class Libc {
    static final int RUSAGE_SELF = 0;
    static final int RUSAGE_THREAD = 1;

    private static final Throwable LOAD_FAILURE;

    static {
        Throwable failure = null;
        try {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        } catch (Throwable t) {
            failure = t;
        }
        LOAD_FAILURE = failure;
    }

    private Libc() {
    }

    /** Null when libc is bound, else why not (JNA missing its native part, not Linux, ...). */
    static String unavailableReason() {
        return LOAD_FAILURE == null ? null : "JNA could not bind libc: " + LOAD_FAILURE;
    }

    static native int getrusage(int who, long[] usage) throws LastErrorException;

    static native int dup(int fd) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native String strerror(int errnum);
}
