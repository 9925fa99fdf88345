package io.xferbench.core.method;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;

/**
 * Moves a download's body file → socket on a Netty event loop, without blocking it: the event-loop models' own way of
 * answering (a {@link SenderMethod} whose {@link SenderMethod#loopSender} is not null). Stateless: one instance serves
 * every connection, whose {@link LoopSocket} holds what belongs to it.
 */
public interface LoopSender {

    /** Refuses, before anything is written, a body this way cannot send on this connection (answered UNAVAILABLE). */
    default void checkSupported(LoopSocket socket, long size) throws UnsupportedTransferException {
    }

    /** The method a body of {@code size} bytes is sent by: this one's id, or the one a method that picks by size picks. */
    String sentAs(LoopSocket socket, long size);

    /** Writes the answer's head, unflushed, in the way that suits the body that follows it. */
    default void writeHead(LoopSocket socket, ByteBuf head, long size) {
        socket.ctx().write(head);
    }

    /** Writes and flushes the whole body (with what was written before it); the future completes once it is out. */
    ChannelFuture send(LoopSocket socket, SourceFile file);
}
