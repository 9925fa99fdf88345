package io.xferbench.core.method.loop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.DefaultFileRegion;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSenderMethod;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;

/**
 * The body as one Netty {@link DefaultFileRegion} written from the loop: on epoll sendfile64(2) from the loop when the
 * socket has room (its head before it with MSG_MORE); on io_uring Netty's {@code IoUringFileRegion}, a pipe2(2) and a
 * SPLICE pair run on io-wq workers. The region is the file's: it closes the file once written.
 */
public final class FileRegionLoopSender implements LoopSender {
    public static final SenderMethod METHOD = new LoopSenderMethod("netty-file-region",
            "event loop: Netty DefaultFileRegion, sendfile64(2) on netty-epoll; on netty-io-uring pipe2(2) + ring SPLICE pairs on io-wq workers",
            new FileRegionLoopSender(), "sendfile64");

    @Override
    public String sentAs(LoopSocket socket, long size) {
        return "netty-file-region";
    }

    @Override
    public void writeHead(LoopSocket socket, ByteBuf head, long size) {
        if (size > 0 && socket.regionHeadWithMore()) {
            socket.writeHeadWithMore(head);
        } else {
            socket.ctx().write(head);
        }
    }

    @Override
    public ChannelFuture send(LoopSocket socket, SourceFile file) {
        if (file.size() == 0) {
            return socket.ctx().writeAndFlush(Unpooled.EMPTY_BUFFER);
        }
        return socket.ctx().writeAndFlush(new DefaultFileRegion(file.channel(), 0, file.size()));
    }
}
