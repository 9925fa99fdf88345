package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;

/**
 * The system calls a ring needs, bound with JNA's direct mapping. glibc has no wrappers for the three io_uring calls,
 * so they go through {@code syscall(2)} with their x86_64 numbers; the shim is x86_64 only ({@link NativeSupport}).
 * glibc's {@code syscall} is variadic, but it reads its arguments from the integer registers only, which is where a
 * fixed seven-{@code long} signature puts them. Pointers are passed as {@code long} addresses.
 */
final class UringCalls {
    static final long SYS_IO_URING_SETUP = 425;
    static final long SYS_IO_URING_ENTER = 426;
    static final long SYS_IO_URING_REGISTER = 427;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_POPULATE = 0x8000;

    static final int RLIMIT_MEMLOCK = 8;

    private static final String UNAVAILABLE_REASON;

    static {
        // NativeSupport binds libc first, which extracts JNA's own library where the suite wants it.
        String reason = NativeSupport.unavailableReason();
        if (reason == null) {
            try {
                Native.register(UringCalls.class, NativeLibrary.getInstance("c"));
            } catch (Throwable t) {
                reason = "JNA could not bind libc's syscall/mmap: " + t;
            }
        }
        UNAVAILABLE_REASON = reason;
    }

    private UringCalls() {
    }

    /** Null when the calls are bound, else why not. */
    static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    static native long syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6) throws LastErrorException;

    static native long mmap(long addr, long length, int prot, int flags, int fd, long offset) throws LastErrorException;

    static native int munmap(long addr, long length) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    /** struct rlimit: rlim_cur, rlim_max. */
    static native int getrlimit(int resource, long[] rlimit) throws LastErrorException;

    static long setup(int entries, long params) throws LastErrorException {
        return syscall(SYS_IO_URING_SETUP, entries, params, 0, 0, 0, 0);
    }

    static long enter(int fd, int toSubmit, int minComplete, int flags) throws LastErrorException {
        return syscall(SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags, 0, 0);
    }

    static long register(int fd, int opcode, long arg, int count) throws LastErrorException {
        return syscall(SYS_IO_URING_REGISTER, fd, opcode, arg, count, 0, 0);
    }

    /** An UNREGISTER_* call ({@code name} says which, for the error), as each registration's close makes it. */
    static void unregister(int fd, int opcode, String name) throws NativeException {
        try {
            register(fd, opcode, 0, 0);
        } catch (LastErrorException e) {
            throw new NativeException("io_uring_register(" + name + ")", e.getErrorCode());
        }
    }
}
