package io.xferbench.core.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.xferbench.core.method.Availability;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A Netty native transport that takes over sockets the JDK accepted. The server accepts every connection
 * with the JDK (one port, whatever the method), reads the request, and for a Netty method hands Netty a
 * {@code dup} of the socket's fd: Netty owns and closes the duplicate, the JDK keeps the original for the
 * next request. Epoll adopts an fd through public API; io_uring only through its package-private
 * constructor, reached reflectively (see docs/architecture.md).
 */
public enum NettyTransport {
    EPOLL("epoll", () -> Epoll.isAvailable() ? Availability.AVAILABLE
            : Availability.unavailable("Netty epoll unavailable: " + Epoll.unavailabilityCause())) {
        @Override
        IoHandlerFactory handlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Channel channelOn(int fd) {
            return new EpollSocketChannel(fd);
        }
    },
    IO_URING("io_uring", NettyTransport::ioUringAvailability) {
        @Override
        IoHandlerFactory handlerFactory() {
            return IoUringIoHandler.newFactory(IoUringWorkers.handlerConfig());
        }

        @Override
        Channel channelOn(int fd) throws IOException {
            try {
                return UringAdoption.CHANNEL.newInstance(null, UringAdoption.SOCKET.newInstance(fd));
            } catch (ReflectiveOperationException e) {
                throw new IOException("cannot adopt fd " + fd + " into Netty io_uring", e);
            }
        }
    };

    static {
        // Before Netty's loader reads its workdir: the constants above only hold lambdas, nothing loaded yet.
        NettyNativeWorkdir.claim();
    }

    private final String label;
    private final Supplier<Availability> probe;
    private volatile Availability availability;
    private volatile EventLoopGroup group;

    NettyTransport(String label, Supplier<Availability> probe) {
        this.label = label;
        this.probe = probe;
    }

    abstract IoHandlerFactory handlerFactory();

    abstract Channel channelOn(int fd) throws IOException;

    public Availability availability() {
        Availability a = availability;
        if (a == null) {
            try {
                NettyNativeWorkdir.loadNatives();   // both at once, then the emptied workdir goes
                a = probe.get();
                if (a.isAvailable() && Fds.unavailableReason() != null) {
                    a = Availability.unavailable(Fds.unavailableReason());
                }
            } catch (Throwable t) {
                a = Availability.unavailable("Netty " + label + " failed to load: " + t);
            }
            availability = a;
        }
        return a;
    }

    /** The process-wide event loops of this transport, one per core, started on first use. */
    public EventLoopGroup group() {
        EventLoopGroup g = group;
        if (g == null) {
            synchronized (this) {
                g = group;
                if (g == null) {
                    int threads = Runtime.getRuntime().availableProcessors();
                    group = g = new MultiThreadIoEventLoopGroup(threads,
                            new DefaultThreadFactory("xferbench-" + label, true), handlerFactory());
                }
            }
        }
        return g;
    }

    /** An event loop of {@link #group()}, for {@code IoHandle}s of one's own (the io_uring engine registers there). */
    public IoEventLoop ioLoop() {
        return ((IoEventLoopGroup) group()).next();
    }

    /**
     * Registers a duplicate of the socket's fd with this transport, on a chosen event loop of {@link #group()}, after
     * {@code setup} configured the channel: options that Netty only accepts before registration (such as epoll's
     * {@code EpollMode}) and the handlers go there, so none misses an event that is ready at registration. Auto-read
     * is off: the JDK side reads the next request, so Netty must never consume it. {@link AdoptedChannel} keeps one
     * per connection.
     */
    public Channel adopt(SocketChannel socket, EventLoop loop, Consumer<Channel> setup) throws IOException {
        Channel channel = wrap(socket, setup);
        registerTogether(loop, () -> {
        }, channel);
        return channel;
    }

    /**
     * A channel of this transport on a duplicate of the socket's fd, auto-read off, configured by {@code setup}, not
     * registered yet: pass it to {@link #registerTogether}. Until then, {@code channel.unsafe().closeForcibly()}
     * closes the duplicate.
     */
    public Channel wrap(SocketChannel socket, Consumer<Channel> setup) throws IOException {
        int fd = Fds.dup(Fds.of(socket));
        Channel channel;
        try {
            channel = channelOn(fd);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd);
            throw e;
        }
        try {
            channel.config().setOption(ChannelOption.AUTO_READ, false);
            setup.accept(channel);
        } catch (RuntimeException e) {
            channel.unsafe().closeForcibly();
            throw e;
        }
        return channel;
    }

    /**
     * Registers {@link #wrap wrapped} channels with {@code loop} in one task on the loop, so that no I/O event of one
     * is handled before all are registered: a relay's handler on one channel writes to the other, and bytes or a FIN
     * already queued on a socket are reported by the very first poll. {@code start} runs in the same task, after the
     * registrations, to start reading (found with both transports: registered one by one and started from another
     * thread, a request and FIN that arrived before adoption were read before the relay's handlers or its splice
     * were in place, and dropped). On failure every channel is closed.
     */
    public static void registerTogether(EventLoop loop, Runnable start, Channel... channels) throws IOException {
        ChannelFuture[] registered = new ChannelFuture[channels.length];
        Runnable registerAll = () -> {
            for (int i = 0; i < channels.length; i++) {
                registered[i] = loop.register(channels[i]);
            }
            for (ChannelFuture f : registered) {
                if (!f.isDone()) {
                    // Registration on the loop itself completes at once in Netty 4.2; if it ever does not, reading
                    // could start before a channel is registered: refuse rather than race.
                    throw new IllegalStateException("Netty registration did not complete on the event loop");
                }
                if (!f.isSuccess()) {
                    return; // the sync below reports it
                }
            }
            start.run();
        };
        try {
            if (loop.inEventLoop()) {
                registerAll.run();
            } else {
                loop.submit(registerAll).sync();
            }
            for (ChannelFuture f : registered) {
                f.sync();
            }
        } catch (InterruptedException e) {
            closeAll(channels);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while registering with Netty", e);
        } catch (RuntimeException e) {
            closeAll(channels);
            throw new IOException("cannot register with Netty: " + e, e);
        }
    }

    private static void closeAll(Channel... channels) {
        for (Channel c : channels) {
            if (c.isRegistered()) {
                c.close();
            } else {
                c.unsafe().closeForcibly();
            }
        }
    }

    private static void closeQuietly(int fd) {
        try {
            Fds.close(fd);
        } catch (NativeException ignored) {
            // The fd was never handed out; nothing else can be done.
        }
    }

    private static Availability ioUringAvailability() {
        if (!IoUring.isAvailable()) {
            return Availability.unavailable("Netty io_uring unavailable: " + IoUring.unavailabilityCause());
        }
        if (UringAdoption.FAILURE != null) {
            return Availability.unavailable("cannot adopt sockets into Netty io_uring: " + UringAdoption.FAILURE);
        }
        return Availability.AVAILABLE;
    }

    /** Reflective access to Netty io_uring's package-private fd constructors. */
    private static final class UringAdoption {
        static final Constructor<?> SOCKET;
        static final Constructor<IoUringSocketChannel> CHANNEL;
        static final String FAILURE;

        static {
            Constructor<?> socket = null;
            Constructor<IoUringSocketChannel> channel = null;
            String failure = null;
            try {
                Class<?> linuxSocket = Class.forName("io.netty.channel.uring.LinuxSocket");
                socket = linuxSocket.getDeclaredConstructor(int.class);
                socket.setAccessible(true);
                channel = IoUringSocketChannel.class.getDeclaredConstructor(Channel.class, linuxSocket);
                channel.setAccessible(true);
            } catch (ReflectiveOperationException | RuntimeException e) {
                failure = e.toString();
            }
            SOCKET = socket;
            CHANNEL = channel;
            FAILURE = failure;
        }
    }

    @Override
    public String toString() {
        return label;
    }
}
