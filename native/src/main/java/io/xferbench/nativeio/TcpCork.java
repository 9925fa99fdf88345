package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * TCP_CORK on a connected socket: while set, the kernel sends only full segments, so a response written in parts (a
 * header, a sendfile'd body, a trailer) leaves in as few segments as its bytes need; clearing it sends what is held.
 * The JDK has no option for it.
 */
public final class TcpCork {
    private static final int TCP_CORK = 3;

    private TcpCork() {
    }

    /** Whether it can run here: the shim bound, and the JDK's socket descriptors reachable ({@link Fds}). */
    public static boolean available() {
        return NativeSupport.available() && Fds.unavailableReason() == null;
    }

    public static void set(SocketChannel socket, boolean on) throws NativeException {
        NativeSupport.check();
        try {
            Libc.setsockopt(Fds.of(socket), Libc.IPPROTO_TCP, TCP_CORK, new int[] {on ? 1 : 0}, Integer.BYTES);
        } catch (LastErrorException e) {
            throw NativeException.of("setsockopt(TCP_CORK)", e);
        }
    }

    public static boolean isSet(SocketChannel socket) throws NativeException {
        NativeSupport.check();
        byte[] value = new byte[Integer.BYTES];
        try {
            Libc.getsockopt(Fds.of(socket), Libc.IPPROTO_TCP, TCP_CORK, value, new int[] {value.length});
        } catch (LastErrorException e) {
            throw NativeException.of("getsockopt(TCP_CORK)", e);
        }
        return ByteBuffer.wrap(value).order(ByteOrder.nativeOrder()).getInt() != 0;
    }
}
