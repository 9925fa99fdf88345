package io.xferbench.core.method.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSenderMethod;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;

/**
 * The event-loop models' default, by the body's size and the transport: a body up to the transport's
 * {@link LoopSocket#copiedBodyLimit} (io_uring: 128 KiB; epoll: none) goes by {@link SendfileLoopSender} where the
 * connection can, else by {@link BufferLoopSender}; a larger one as a {@link FileRegionLoopSender}. What
 * {@code X-Xferbench-Method} names is the one picked.
 */
public final class AutoLoopSender implements LoopSender {
    public static final SenderMethod METHOD = new LoopSenderMethod("netty-auto",
            "event loop, by size: netty-file-region past the transport's small-body limit (epoll: every body), else "
                    + "loop-sendfile (netty-io-uring), or netty-buffer without the native shim",
            new AutoLoopSender(), "sendfile64");

    private final LoopSender region = FileRegionLoopSender.METHOD.loopSender();
    private final LoopSender sendfile = SendfileLoopSender.METHOD.loopSender();
    private final LoopSender buffer = BufferLoopSender.METHOD.loopSender();

    private LoopSender pick(LoopSocket socket, long size) {
        if (socket.copiedBodyLimit() == 0 || size > socket.copiedBodyLimit()) {
            return region;
        }
        return socket.prefersLoopSendfile() && socket.loopSendfileUnavailable() == null ? sendfile : buffer;
    }

    @Override
    public String sentAs(LoopSocket socket, long size) {
        return pick(socket, size).sentAs(socket, size);
    }

    @Override
    public void writeHead(LoopSocket socket, ByteBuf head, long size) {
        pick(socket, size).writeHead(socket, head, size);
    }

    @Override
    public ChannelFuture send(LoopSocket socket, SourceFile file) {
        return pick(socket, file.size()).send(socket, file);
    }
}
