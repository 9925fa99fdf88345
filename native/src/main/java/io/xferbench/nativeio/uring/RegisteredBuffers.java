package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.NativeException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Buffers registered with a ring (IORING_REGISTER_BUFFERS): the kernel pins their pages once, so a READ_FIXED or
 * WRITE_FIXED skips the per-request page lookup and pinning a plain READ pays. The buffers stay referenced here while
 * registered: the kernel holds their pages, the JVM must not free them. Closing unregisters them.
 */
public final class RegisteredBuffers implements AutoCloseable {
    private final int ringFd;
    private final List<ByteBuffer> buffers;
    private final long[] addresses;
    private boolean unregistered;

    private RegisteredBuffers(int ringFd, List<ByteBuffer> buffers, long[] addresses) {
        this.ringFd = ringFd;
        this.buffers = buffers;
        this.addresses = addresses;
    }

    static RegisteredBuffers register(int ringFd, List<ByteBuffer> buffers) throws NativeException {
        List<ByteBuffer> held = List.copyOf(buffers);
        long[] addresses = new long[held.size()];
        long total = 0;
        try (Memory iovecs = new Memory(16L * Math.max(1, held.size()))) {
            for (int i = 0; i < held.size(); i++) {
                ByteBuffer buffer = held.get(i);
                addresses[i] = AlignedBuffers.address(buffer);
                iovecs.setLong(16L * i, addresses[i]);
                iovecs.setLong(16L * i + 8, buffer.capacity());
                total += buffer.capacity();
            }
            UringCalls.register(ringFd, UringAbi.REGISTER_BUFFERS, com.sun.jna.Pointer.nativeValue(iovecs), held.size());
        } catch (LastErrorException e) {
            String detail = e.getErrorCode() == Errno.ENOMEM
                    ? "registered buffers are locked memory: " + total + " bytes asked, " + MemoryLock.describe()
                            + ", and no CAP_IPC_LOCK"
                    : held.size() + " buffers, " + total + " bytes";
            throw new NativeException("io_uring_register(REGISTER_BUFFERS)", e.getErrorCode(), detail);
        }
        return new RegisteredBuffers(ringFd, held, addresses);
    }

    public int count() {
        return buffers.size();
    }

    /** Registered buffer {@code index} (its whole capacity is registered). */
    public ByteBuffer buffer(int index) {
        return buffers.get(index);
    }

    /** The native address of buffer {@code index}'s first byte. */
    public long address(int index) {
        return addresses[index];
    }

    @Override
    public void close() throws NativeException {
        if (unregistered) {
            return;
        }
        unregistered = true;
        UringCalls.unregister(ringFd, UringAbi.UNREGISTER_BUFFERS, "UNREGISTER_BUFFERS");
    }
}
