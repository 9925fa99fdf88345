package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/** Counters of a TCP socket from the kernel's {@code struct tcp_info} (getsockopt TCP_INFO), x86_64 layout. */
public final class TcpInfo {
    private static final int TCP_INFO = 11;
    private static final int STRUCT_BYTES = 232;
    /** {@code tcpi_bytes_acked} (Linux 4.1+): bytes sent that the peer acknowledged. */
    private static final int BYTES_ACKED_OFFSET = 120;
    /** {@code tcpi_bytes_received} (Linux 4.1+): bytes received in order. */
    private static final int BYTES_RECEIVED_OFFSET = 128;
    /** {@code tcpi_data_segs_in} (Linux 4.6+): segments received that carried data, pure ACKs not counted. */
    private static final int DATA_SEGS_IN_OFFSET = 152;

    private TcpInfo() {
    }

    /** {@code tcpi_state}'s value for a connection that is over: reset by the peer, or aborted. */
    private static final int TCP_CLOSE = 7;

    /**
     * Whether the connected socket {@code fd} is in TCP_CLOSE: the peer reset it (a FIN leaves it in CLOSE_WAIT), so
     * nothing more will arrive and nothing sent will be taken. Unlike a read, this neither consumes the pending error
     * nor needs data drained first.
     */
    public static boolean closed(int fd) throws NativeException {
        return Byte.toUnsignedInt(info(fd, 1, "state").get(0)) == TCP_CLOSE;
    }

    /** Segments with data this socket has received so far. */
    public static long dataSegmentsIn(SocketChannel socket) throws NativeException {
        return Integer.toUnsignedLong(info(Fds.of(socket), DATA_SEGS_IN_OFFSET + Integer.BYTES, "data_segs_in").getInt(DATA_SEGS_IN_OFFSET));
    }

    /**
     * Bytes this socket moved so far in either direction: those the peer acknowledged plus those received. It grows
     * while a body moves, whichever way, and stands still while neither side takes a byte.
     */
    public static long bytesMoved(int fd) throws NativeException {
        ByteBuffer info = info(fd, BYTES_RECEIVED_OFFSET + Long.BYTES, "bytes_acked and bytes_received");
        return info.getLong(BYTES_ACKED_OFFSET) + info.getLong(BYTES_RECEIVED_OFFSET);
    }

    /** The socket's tcp_info, which must hold at least {@code needed} bytes (the kernel's may be older and shorter). */
    private static ByteBuffer info(int fd, int needed, String fields) throws NativeException {
        NativeSupport.check();
        byte[] info = new byte[STRUCT_BYTES];
        int[] length = {info.length};
        try {
            Libc.getsockopt(fd, Libc.IPPROTO_TCP, TCP_INFO, info, length);
        } catch (LastErrorException e) {
            throw NativeException.of("getsockopt(TCP_INFO)", e);
        }
        if (length[0] < needed) {
            throw new NativeException("getsockopt(TCP_INFO)", Errno.ENOSYS, "the kernel's tcp_info has no " + fields + " (" + length[0] + " bytes)");
        }
        return ByteBuffer.wrap(info).order(ByteOrder.nativeOrder());
    }
}
