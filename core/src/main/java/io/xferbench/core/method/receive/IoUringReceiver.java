package io.xferbench.core.method.receive;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.netty.AdoptedChannel;
import io.xferbench.core.netty.NettyFutures;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.nativeio.Fds;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.CRC32C;

/**
 * Netty io_uring reads into pooled direct {@code ByteBuf}s (IORING_OP_RECV via io_uring_enter(2)), each written to
 * the file with {@code FileChannel.write} (pwrite64(2)) on the event loop, CRC32C computed from the ByteBuf.
 *
 * <p>Auto-read stays off and the handler asks for the next read ({@code ctx.read()}) only while body bytes are
 * still owed, so exactly one receive is outstanding at a time and none is left pending once the body is complete:
 * a pending IORING_OP_RECV would otherwise swallow the connection's next request.
 */
public final class IoUringReceiver implements FileReceiver {
    public static final ReceiverMethod METHOD = new DefinedReceiverMethod("io-uring",
            "Netty io_uring ByteBuf reads: IORING_OP_RECV via io_uring_enter(2) into a pooled direct buffer, then pwrite64(2) on the event loop",
            NettyTransport.IO_URING::availability, Long.MAX_VALUE, "",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy(MethodTraits.IO_URING_ENTER, "pwrite64"),
            options -> new IoUringReceiver(NettyFutures.DEFAULT_STALL));

    private final Duration stall;
    private final AdoptedChannel channel = new AdoptedChannel(NettyTransport.IO_URING,
            c -> c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false));

    IoUringReceiver(Duration stall) {
        this.stall = stall;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(ahead.duplicate());
        long from = FileReceiver.writeAhead(ahead, file);
        if (from == length) {
            return crc.getValue();
        }
        Channel ch = channel.on(socket);
        FileSink sink = new FileSink(file, crc, from, length, ch.newPromise());
        try {
            ch.pipeline().addLast(sink);
            ch.read();
            NettyFutures.await(sink.done, () -> sink.written, stall, "io-uring upload", Fds.of(socket));
            NettyFutures.onLoop(ch, () -> ch.pipeline().remove(sink));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return sink.crc.getValue();
    }

    @Override
    public void close() {
        channel.close();
    }

    /** Writes what arrives at consecutive file offsets until {@code length} bytes are in; runs on the event loop. */
    private static final class FileSink extends ChannelInboundHandlerAdapter {
        final CRC32C crc;
        final ChannelPromise done;
        private final FileChannel file;
        private final long length;
        volatile long written;

        /** @param crc the CRC32C of the bytes before {@code from}, already in the file */
        FileSink(FileChannel file, CRC32C crc, long from, long length, ChannelPromise done) {
            this.file = file;
            this.crc = crc;
            this.written = from;
            this.length = length;
            this.done = done;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                if (done.isDone()) {
                    return;
                }
                int n = buf.readableBytes();
                if (n > length - written) {
                    fail(ctx, new IOException("client sent more than the " + length + " bytes it declared"));
                    return;
                }
                long pos = written;
                for (ByteBuffer b : buf.nioBuffers()) {
                    crc.update(b.duplicate());
                    while (b.hasRemaining()) {
                        pos += file.write(b, pos);
                    }
                }
                written = pos;
                if (pos == length) {
                    done.trySuccess();
                }
            } catch (IOException | RuntimeException e) {
                fail(ctx, e);
            } finally {
                buf.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!done.isDone()) {
                ctx.read();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent || evt instanceof ChannelInputShutdownReadComplete) {
                fail(ctx, eof());
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(ctx, eof());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(ctx, cause);
        }

        private EOFException eof() {
            return new EOFException("connection closed after " + written + " of " + length + " body bytes");
        }

        private void fail(ChannelHandlerContext ctx, Throwable cause) {
            if (done.tryFailure(cause)) {
                ctx.close();
            }
        }
    }
}
