package io.xferbench.core.method;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.io.IOException;

/** What an event-loop connection offers a {@link LoopSender}: its channel, and the transport's ways past the pipeline. */
public interface LoopSocket {

    ChannelHandlerContext ctx();

    /** The transport's own choice for bodies up to this size (0: none): sent from the loop rather than as a region. */
    int copiedBodyLimit();

    /** The transport's choice of sendfile(2) from the loop for a body up to {@link #copiedBodyLimit}. */
    boolean prefersLoopSendfile();

    /** Whether a head before a file region may go straight to the socket with MSG_MORE (the transport's regions allow it). */
    boolean regionHeadWithMore();

    /**
     * Writes {@code head} straight to the socket with MSG_MORE where it can (not while the answer is corked), else
     * through the pipeline; unflushed either way.
     */
    void writeHeadWithMore(ByteBuf head);

    /** Null when sendfile(2) from the loop can run on this connection (its socket made non-blocking), else why not. */
    String loopSendfileUnavailable();

    /** Sends the file from its start by sendfile(2) while the socket takes it; the bytes sent (fewer when it filled). */
    long loopSendfile(SourceFile file) throws IOException;
}
