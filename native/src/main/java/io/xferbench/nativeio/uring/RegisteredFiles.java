package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.xferbench.nativeio.NativeException;

/**
 * Descriptors registered with a ring (IORING_REGISTER_FILES): a request with IOSQE_FIXED_FILE names a file by its
 * index here, so the kernel skips the fd-table lookup and the file's reference count per request. The ring holds its
 * own reference to each file until they are unregistered (closing does that).
 */
public final class RegisteredFiles implements AutoCloseable {
    private final int ringFd;
    private final int count;
    private boolean unregistered;

    private RegisteredFiles(int ringFd, int count) {
        this.ringFd = ringFd;
        this.count = count;
    }

    static RegisteredFiles register(int ringFd, int... fds) throws NativeException {
        try (Memory table = new Memory(4L * Math.max(1, fds.length))) {
            for (int i = 0; i < fds.length; i++) {
                table.setInt(4L * i, fds[i]);
            }
            UringCalls.register(ringFd, UringAbi.REGISTER_FILES, Pointer.nativeValue(table), fds.length);
        } catch (LastErrorException e) {
            throw new NativeException("io_uring_register(REGISTER_FILES)", e.getErrorCode(), fds.length + " files");
        }
        return new RegisteredFiles(ringFd, fds.length);
    }

    public int count() {
        return count;
    }

    @Override
    public void close() throws NativeException {
        if (unregistered) {
            return;
        }
        unregistered = true;
        UringCalls.unregister(ringFd, UringAbi.UNREGISTER_FILES, "UNREGISTER_FILES");
    }
}
