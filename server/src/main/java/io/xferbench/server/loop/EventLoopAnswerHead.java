package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.SendMore;

/**
 * A download answer's head on an event-loop connection whose body follows as a file region (sendfile on epoll), sent
 * straight to the socket with MSG_MORE, as {@link AnswerHead} sends it on the thread models: it waits in the socket
 * and leaves with the body's first bytes instead of as a small segment of its own, whose transmission and receipt
 * (on loopback, in the server's own softirq) and the client's extra wake-up cost as much as sending the body
 * (docs/load.md, "`netty-epoll`'s CPU per download"). Netty's writes cannot pass the flag. Same syscall count:
 * one {@code sendto} where the pipeline's {@code writev} was.
 */
public final class EventLoopAnswerHead {
    /** Without the shim the head goes through the pipeline, as before. */
    private static final boolean SEND_MORE = NativeSupport.available();

    private EventLoopAnswerHead() {
    }

    /**
     * Writes {@code head} (not flushed through the pipeline): what the socket takes now, with MSG_MORE, when no byte
     * waits in the channel's outbound buffer, flushed or not (else the head would overtake it: {@code isEmpty()} counts
     * flushed messages only); the rest, if any, through the pipeline.
     */
    static void write(ChannelHandlerContext ctx, ByteBuf head) {
        Channel channel = ctx.channel();
        ChannelOutboundBuffer waiting = channel.unsafe().outboundBuffer();
        if (SEND_MORE && channel instanceof UnixChannel unix && waiting != null && waiting.totalPendingWriteBytes() == 0 && head.nioBufferCount() == 1) {
            try {
                int sent = SendMore.send(unix.fd().intValue(), head.nioBuffer());
                if (sent > 0) {
                    head.skipBytes(sent);
                }
            } catch (NativeException e) {
                // Left to the pipeline's write, which meets the socket's error as every other write does.
            }
        }
        if (head.isReadable()) {
            ctx.write(head);
        } else {
            head.release();
        }
    }
}
