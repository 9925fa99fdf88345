package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.DuplexChannel;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * How an event-loop connection's answers leave its socket: frames written and flushed with the connection told when
 * one is written ({@code written}), the cork around a download's answer, and a last answer followed by FIN.
 */
final class EventLoopAnswerWriter {
    private static final Logger LOG = Logger.getLogger(EventLoopAnswerWriter.class.getName());

    private final String model;
    /** TCP_CORK of this transport, or null when answers are not corked. */
    private final ChannelOption<Boolean> cork;
    /** Told whether an answer's write succeeded: the connection goes on to the next request, or closes. */
    private final Consumer<Boolean> written;
    private ChannelHandlerContext ctx;

    EventLoopAnswerWriter(String model, ChannelOption<Boolean> cork, Consumer<Boolean> written) {
        this.model = model;
        this.cork = cork;
        this.written = written;
    }

    /** The connection's channel, once its handler is added. */
    void attach(ChannelHandlerContext context) {
        ctx = context;
    }

    /** Whether answers are corked on this connection. */
    boolean corked() {
        return cork != null;
    }

    static ByteBuf frame(ByteBuffer frame) {
        return Unpooled.wrappedBuffer(frame);
    }

    /** Writes a whole answer; once written, the connection is told and serves the next request (or closes). */
    void answer(ByteBuffer frame) {
        ctx.writeAndFlush(frame(frame)).addListener(f -> written.accept(f.isSuccess()));
    }

    /**
     * Corks the connection while a download's answer is written ({@code --cork-responses}; {@link io.xferbench.server.thread.ResponseCork} for the
     * thread models): set before its first part, cleared once its last part's write completed, which sends what was held.
     */
    void cork(boolean on) {
        if (cork != null) {
            try {
                ctx.channel().config().setOption(cork, on);
            } catch (ChannelException e) {
                // The socket is gone (the peer left): nothing is left to send.
                LOG.fine(() -> model + " conn: TCP_CORK not changed: " + e);
            }
        }
    }

    /**
     * Writes a last answer (if any), then sends FIN; closes instead if the write failed or the client's side is shut
     * already ({@code inputEnded}, asked once the write is done).
     */
    void last(ByteBuffer answer, BooleanSupplier inputEnded) {
        ctx.writeAndFlush(answer == null ? Unpooled.EMPTY_BUFFER : frame(answer)).addListener(f -> {
            if (f.isSuccess() && !inputEnded.getAsBoolean() && ctx.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                ctx.close();
            }
        });
    }
}
