package io.xferbench.core.netty;

import io.netty.channel.Channel;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * The Netty channel a method adopted from the socket it was handed, kept while the same socket comes back (the
 * requests of one connection pay the adoption once) and replaced when another socket comes or Netty closed it.
 */
public final class AdoptedChannel implements AutoCloseable {
    private final NettyTransport transport;
    private final Consumer<Channel> setup;
    private Channel channel;
    private SocketChannel adoptedFrom;

    /** @param setup configures each new channel before it is registered (see {@link NettyTransport#adopt}) */
    public AdoptedChannel(NettyTransport transport, Consumer<Channel> setup) {
        this.transport = transport;
        this.setup = setup;
    }

    /** The channel on {@code socket}: the one kept, or a new one on the next event loop of the transport's group. */
    public Channel on(SocketChannel socket) throws IOException {
        if (channel == null || adoptedFrom != socket || !channel.isOpen()) {
            close();
            channel = transport.adopt(socket, transport.group().next(), setup);
            adoptedFrom = socket;
        }
        return channel;
    }

    /** Closes the kept channel, if any: its duplicate of the fd, not the socket. */
    @Override
    public void close() {
        NettyFutures.closeQuietly(channel);
        channel = null;
        adoptedFrom = null;
    }
}
