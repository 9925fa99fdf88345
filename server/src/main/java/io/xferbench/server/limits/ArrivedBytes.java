package io.xferbench.server.limits;

import io.netty.channel.unix.FileDescriptor;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * What a client refused at once (no descriptor to spare, too many refusals waiting) has sent by then, read without
 * waiting: its first bytes tell its protocol ({@link BusyAnswer}: an HTTP client hears 503, not the native frame), and
 * taking what arrived lets the close send FIN rather than RST, which can destroy the answer before it is read. Reads
 * at most {@link #MAX} bytes; what arrives later is not waited for.
 */
public final class ArrivedBytes {
    public static final int MAX = 16 * 1024;

    private ArrivedBytes() {
    }

    /** From a thread model's socket, left blocking; the first {@link BusyAnswer#FIRST_BYTES} of what had arrived. */
    public static ByteBuffer take(SocketChannel socket) {
        ByteBuffer arrived = ByteBuffer.allocate(MAX);
        try {
            socket.configureBlocking(false);
            try {
                while (arrived.hasRemaining() && socket.read(arrived) > 0) {
                    // what is there already
                }
            } finally {
                socket.configureBlocking(true);
            }
        } catch (IOException gone) {
            // Whatever arrived before the client left is all there is.
        }
        return first(arrived);
    }

    /**
     * From an event loop's just-accepted child, made non-blocking first (an io_uring child may not be; it is closed right
     * after); {@code scratch} is a direct buffer of {@link #MAX} bytes, reused by the caller's loop.
     */
    public static ByteBuffer take(FileDescriptor fd, ByteBuffer scratch) {
        scratch.clear();
        try {
            Fds.setNonBlocking(fd.intValue(), true);
            for (int n; scratch.hasRemaining() && (n = fd.read(scratch, scratch.position(), scratch.limit())) > 0; ) {
                scratch.position(scratch.position() + n);
            }
        } catch (IOException | RuntimeException gone) {
            // Whatever arrived before the client left (or before the read failed) is all there is.
        }
        return first(scratch);
    }

    private static ByteBuffer first(ByteBuffer arrived) {
        arrived.flip();
        ByteBuffer first = ByteBuffer.allocate(Math.min(arrived.remaining(), BusyAnswer.FIRST_BYTES));
        first.put(arrived.limit(first.capacity())).flip();
        return first;
    }
}
