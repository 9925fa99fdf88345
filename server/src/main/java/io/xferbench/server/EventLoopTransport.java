package io.xferbench.server;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.xferbench.core.method.Availability;
import io.xferbench.core.netty.IoUringWorkers;

/**
 * The Netty transport under an event-loop model ({@link EventLoopServer}): everything else about the model is the
 * same. io_uring rings get the server's io-wq worker cap ({@code --io-uring-max-workers}).
 */
enum EventLoopTransport {
    EPOLL("netty-epoll", EpollServerSocketChannel.class) {
        @Override
        Availability availability() {
            return Epoll.isAvailable() ? Availability.AVAILABLE
                    : Availability.unavailable("Netty epoll is unavailable: " + Epoll.unavailabilityCause());
        }

        @Override
        IoHandlerFactory handlerFactory() {
            return EpollIoHandler.newFactory();
        }
    },
    IO_URING("netty-io-uring", IoUringServerSocketChannel.class) {
        @Override
        Availability availability() {
            return IoUring.isAvailable() ? Availability.AVAILABLE
                    : Availability.unavailable("Netty io_uring is unavailable: " + IoUring.unavailabilityCause());
        }

        @Override
        IoHandlerFactory handlerFactory() {
            return IoUringIoHandler.newFactory(IoUringWorkers.handlerConfig());
        }
    };

    /** The model's id on {@code --io-model}. */
    final String model;
    final Class<? extends ServerChannel> serverChannel;

    EventLoopTransport(String model, Class<? extends ServerChannel> serverChannel) {
        this.model = model;
        this.serverChannel = serverChannel;
    }

    abstract Availability availability();

    abstract IoHandlerFactory handlerFactory();
}
