package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;

/** A failed libc call, with the errno's symbolic name and text: {@code pread(/data/f): EINVAL (Invalid argument)}. */
public final class NativeException extends IOException {
    private final int errno;

    public NativeException(String call, int errno) {
        super(call + ": " + Errno.name(errno) + " (" + Errno.describe(errno) + ")");
        this.errno = errno;
    }

    public NativeException(String call, int errno, String detail) {
        super(call + ": " + Errno.name(errno) + " (" + Errno.describe(errno) + ")" + (detail == null || detail.isEmpty() ? "" : "; " + detail));
        this.errno = errno;
    }

    static NativeException of(String call, LastErrorException e) {
        return new NativeException(call, e.getErrorCode());
    }

    public int errno() {
        return errno;
    }

    public String errnoName() {
        return Errno.name(errno);
    }
}
