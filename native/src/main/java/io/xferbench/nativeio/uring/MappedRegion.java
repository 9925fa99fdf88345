package io.xferbench.nativeio.uring;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import io.xferbench.nativeio.NativeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One region of a ring's memory shared with the kernel (mmap of the ring fd), seen as a direct ByteBuffer in native
 * order: Java 21 has the FFM API only as a preview, and a buffer view plus
 * {@code MethodHandles.byteBufferViewVarHandle} gives the acquire/release accesses the ring protocol needs.
 */
final class MappedRegion implements AutoCloseable {
    private final long address;
    private final long length;
    private final ByteBuffer bytes;
    private boolean unmapped;

    private MappedRegion(long address, long length) {
        this.address = address;
        this.length = length;
        this.bytes = new Pointer(address).getByteBuffer(0, length).order(ByteOrder.nativeOrder());
    }

    static MappedRegion map(int ringFd, long length, long offset, String what) throws NativeException {
        try {
            long address = UringCalls.mmap(0, length, UringCalls.PROT_READ | UringCalls.PROT_WRITE,
                    UringCalls.MAP_SHARED | UringCalls.MAP_POPULATE, ringFd, offset);
            return new MappedRegion(address, length);
        } catch (LastErrorException e) {
            throw new NativeException("mmap(io_uring " + what + ", " + length + " bytes)", e.getErrorCode());
        }
    }

    ByteBuffer bytes() {
        return bytes;
    }

    @Override
    public void close() throws NativeException {
        if (unmapped) {
            return;
        }
        unmapped = true;
        try {
            UringCalls.munmap(address, length);
        } catch (LastErrorException e) {
            throw new NativeException("munmap(io_uring region, " + length + " bytes)", e.getErrorCode());
        }
    }
}
