package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.FileDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.spi.SelectorProvider;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * The integer file descriptors behind JDK channels. The JDK has no public API for them, so this reads them
 * reflectively; the JVM must run with the opens of {@link JvmFlags} (the jars' manifests and the build set them).
 */
public final class Fds {
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 04000;
    private static final int POLLERR = 0x8;
    private static final int POLLHUP = 0x10;
    private static final int POLLNVAL = 0x20;

    private static final Method SOCKET_FD_VAL;
    private static final Field FILE_CHANNEL_FD;
    private static final Field FD_INT;
    /** sun.nio.ch.FileChannelImpl.open(FileDescriptor, String, boolean readable, boolean writable, [boolean sync,] boolean direct, Closeable). */
    private static final Method FILE_CHANNEL_OPEN;
    private static final String FAILURE;

    static {
        Method socketFdVal = null;
        Field fileChannelFd = null;
        Field fdInt = null;
        Method channelOpen = null;
        String failure = null;
        try {
            socketFdVal = Class.forName("sun.nio.ch.SelChImpl").getMethod("getFDVal");
            socketFdVal.setAccessible(true);
            fileChannelFd = Class.forName("sun.nio.ch.FileChannelImpl").getDeclaredField("fd");
            fileChannelFd.setAccessible(true);
            fdInt = FileDescriptor.class.getDeclaredField("fd");
            fdInt.setAccessible(true);
            // JDK 21 has no sync parameter, later ones have: told apart by the count.
            for (Method m : Class.forName("sun.nio.ch.FileChannelImpl").getMethods()) {
                if (m.getName().equals("open") && m.getParameterCount() >= 6 && m.getParameterTypes()[0] == FileDescriptor.class) {
                    channelOpen = m;
                }
            }
            if (channelOpen == null) {
                throw new NoSuchMethodException("sun.nio.ch.FileChannelImpl.open(FileDescriptor, ...)");
            }
            channelOpen.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            failure = "cannot reach JDK file descriptors (" + e + "); run the JVM with " + JvmFlags.OPEN_NIO + " " + JvmFlags.OPEN_IO;
        }
        SOCKET_FD_VAL = socketFdVal;
        FILE_CHANNEL_FD = fileChannelFd;
        FD_INT = fdInt;
        FILE_CHANNEL_OPEN = channelOpen;
        FAILURE = failure;
    }

    private Fds() {
    }

    /** Null when fds are reachable, else why not. */
    public static String unavailableReason() {
        return FAILURE;
    }

    public static int of(SocketChannel channel) {
        check();
        try {
            return (int) SOCKET_FD_VAL.invoke(channel);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the fd of " + channel, e);
        }
    }

    public static int of(FileChannel channel) {
        check();
        try {
            return FD_INT.getInt(FILE_CHANNEL_FD.get(channel));
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot read the fd of " + channel + " (not a file channel from FileChannel.open?)", e);
        }
    }

    /** A {@link FileDescriptor} holding {@code fd}, for wrapping a descriptor opened natively into a JDK stream. */
    static FileDescriptor descriptor(int fd) {
        check();
        FileDescriptor d = new FileDescriptor();
        try {
            FD_INT.setInt(d, fd);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot set the fd of a FileDescriptor", e);
        }
        return d;
    }

    /**
     * A JDK channel for reading and writing that owns {@code fd} (a regular file opened {@code O_RDWR} natively):
     * closing the channel closes it. A stream's channel would be read-only or write-only.
     */
    static FileChannel readWriteChannel(int fd, String path) {
        FileDescriptor d = descriptor(fd);
        Object[] args = FILE_CHANNEL_OPEN.getParameterCount() == 7
                ? new Object[] {d, path, true, true, false, false, null}
                : new Object[] {d, path, true, true, false, null};
        try {
            return (FileChannel) FILE_CHANNEL_OPEN.invoke(null, args);
        } catch (ReflectiveOperationException e) {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // Nothing was handed out.
            }
            throw new IllegalStateException("cannot make a file channel of fd " + fd, e);
        }
    }

    /**
     * A blocking JDK channel that owns {@code fd}, a connected TCP socket to {@code remote}: closing the channel closes
     * {@code fd}. A socket left non-blocking (O_NONBLOCK) works too: the JDK's blocking writes wait by poll(2) on it.
     * If no channel can be made, {@code fd} is closed: the caller handed it over.
     */
    public static SocketChannel socketChannel(int fd, InetSocketAddress remote) {
        try {
            check();
            Constructor<?> c = Class.forName("sun.nio.ch.SocketChannelImpl").getDeclaredConstructor(SelectorProvider.class,
                    ProtocolFamily.class, FileDescriptor.class, SocketAddress.class);
            c.setAccessible(true);
            ProtocolFamily family = remote.getAddress() instanceof Inet4Address ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
            return (SocketChannel) c.newInstance(SelectorProvider.provider(), family, descriptor(fd), remote);
        } catch (ReflectiveOperationException | RuntimeException e) {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // Nothing was handed out.
            }
            throw new IllegalStateException("cannot make a socket channel of fd " + fd + ": " + e, e);
        }
    }

    /** A new descriptor for the same open file description; the caller owns and must close it. */
    public static int dup(int fd) throws NativeException {
        NativeSupport.check();
        try {
            return Libc.dup(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("dup(" + fd + ")", e);
        }
    }

    /**
     * Sets or clears O_NONBLOCK. The flag belongs to the open file description, so it applies to every
     * {@code dup} of {@code fd} too (the JDK channel and Netty's adopted copy share it).
     */
    public static void setNonBlocking(int fd, boolean nonBlocking) throws NativeException {
        NativeSupport.check();
        try {
            long flags = Libc.fcntl(fd, F_GETFL, 0);
            long wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
            if (wanted != flags) {
                Libc.fcntl(fd, F_SETFL, wanted);
            }
        } catch (LastErrorException e) {
            throw NativeException.of("fcntl(" + fd + ", F_SETFL, " + (nonBlocking ? "+" : "-") + "O_NONBLOCK)", e);
        }
    }

    public static boolean isNonBlocking(int fd) throws NativeException {
        NativeSupport.check();
        try {
            return (Libc.fcntl(fd, F_GETFL, 0) & O_NONBLOCK) != 0;
        } catch (LastErrorException e) {
            throw NativeException.of("fcntl(" + fd + ", F_GETFL)", e);
        }
    }

    /**
     * Whether the socket behind {@code fd} has an error or was hung up (a peer's RST shows as POLLERR|POLLHUP),
     * asked with a zero-timeout poll(2) that consumes nothing.
     */
    public static boolean hasErrorOrHangup(int fd) throws NativeException {
        NativeSupport.check();
        int[] pollfd = {fd, 0};
        try {
            if (Libc.poll(pollfd, 1, 0) == 0) {
                return false;
            }
        } catch (LastErrorException e) {
            throw NativeException.of("poll(" + fd + ")", e);
        }
        int revents = pollfd[1] >>> 16;
        return (revents & (POLLERR | POLLHUP | POLLNVAL)) != 0;
    }

    public static void close(int fd) throws NativeException {
        NativeSupport.check();
        try {
            Libc.close(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("close(" + fd + ")", e);
        }
    }

    private static void check() {
        if (FAILURE != null) {
            throw new IllegalStateException(FAILURE);
        }
    }
}
