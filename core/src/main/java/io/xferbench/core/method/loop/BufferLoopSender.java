package io.xferbench.core.method.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSenderMethod;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.UnsupportedTransferException;
import java.io.EOFException;
import java.io.IOException;

/**
 * The body read on the loop into one direct buffer (pread(2) from the page cache) and written with its head in one
 * write: a copy in user space, no file region. Bounded by {@link #MAX_BODY}, the buffer a connection may hold.
 */
public final class BufferLoopSender implements LoopSender {
    /** The largest body read into a buffer: io_uring's own limit for its small bodies. */
    public static final int MAX_BODY = 128 * 1024;

    public static final SenderMethod METHOD = new LoopSenderMethod("netty-buffer",
            "event loop: pread(2) of the body into a direct buffer, written with its head (writev on netty-epoll, a ring "
                    + "WRITEV on netty-io-uring); bodies up to 128 KiB",
            new BufferLoopSender(), "pread64");

    @Override
    public void checkSupported(LoopSocket socket, long size) throws UnsupportedTransferException {
        if (size > MAX_BODY) {
            throw new UnsupportedTransferException("reads a body into one buffer of at most " + MAX_BODY + " bytes; this one has "
                    + size + " (netty-file-region sends any size)");
        }
    }

    @Override
    public String sentAs(LoopSocket socket, long size) {
        return "netty-buffer";
    }

    @Override
    public ChannelFuture send(LoopSocket socket, SourceFile file) {
        return copied(socket.ctx(), file, 0);
    }

    /** Reads the file from {@code from} to its end into a buffer here on the loop, and writes and flushes it. */
    static ChannelFuture copied(ChannelHandlerContext ctx, SourceFile file, long from) {
        if (from == file.size()) {
            return ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER);
        }
        ByteBuf body = ctx.alloc().directBuffer((int) (file.size() - from));
        try {
            long position = from;
            while (body.isWritable()) {
                int n = body.writeBytes(file.channel(), position, body.writableBytes());
                if (n < 0) {
                    throw new EOFException(file.path() + " shrank to " + position + " bytes while being sent (" + file.size() + " expected)");
                }
                position += n;
            }
        } catch (IOException e) {
            body.release();
            return ctx.newFailedFuture(e);
        }
        return ctx.writeAndFlush(body);
    }
}
