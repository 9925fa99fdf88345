package io.xferbench.core.method.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSenderMethod;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.UnsupportedTransferException;
import java.io.IOException;

/**
 * sendfile64(2) from the loop past Netty's pipeline, after a MSG_MORE head, on the connection's non-blocking socket:
 * page cache to socket inside the kernel without a region (on io_uring, without its pipe and io-wq SPLICEs). What the
 * socket does not take is read into a buffer and written through the pipeline ({@link BufferLoopSender}), so bodies are
 * bounded as that one's are.
 */
public final class SendfileLoopSender implements LoopSender {
    public static final SenderMethod METHOD = new LoopSenderMethod("loop-sendfile",
            "event loop: sendfile64(2) past Netty's pipeline after a MSG_MORE head, the rest (socket full) read into a buffer; "
                    + "bodies up to 128 KiB",
            new SendfileLoopSender(), "sendfile64");

    @Override
    public void checkSupported(LoopSocket socket, long size) throws UnsupportedTransferException {
        String why = socket.loopSendfileUnavailable();
        if (why != null) {
            throw new UnsupportedTransferException(why);
        }
        new BufferLoopSender().checkSupported(socket, size);
    }

    @Override
    public String sentAs(LoopSocket socket, long size) {
        return "loop-sendfile";
    }

    @Override
    public void writeHead(LoopSocket socket, ByteBuf head, long size) {
        if (size > 0) {
            socket.writeHeadWithMore(head);
        } else {
            socket.ctx().write(head);
        }
    }

    @Override
    public ChannelFuture send(LoopSocket socket, SourceFile file) {
        ChannelHandlerContext ctx = socket.ctx();
        long sent = 0;
        ChannelOutboundBuffer waiting = ctx.channel().unsafe().outboundBuffer();
        // Past the pipeline only when nothing waits in it, or the body would overtake its own head.
        if (file.size() > 0 && waiting != null && waiting.totalPendingWriteBytes() == 0) {
            try {
                sent = socket.loopSendfile(file);
            } catch (IOException e) {
                return ctx.newFailedFuture(e);
            }
            if (sent == file.size()) {
                return ctx.newSucceededFuture();
            }
        }
        return BufferLoopSender.copied(ctx, file, sent);
    }
}
