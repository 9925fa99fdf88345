package io.xferbench.core.method.receive;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.unix.FileDescriptor;
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
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Netty epoll {@code AbstractEpollStreamChannel.spliceTo(FileDescriptor, int offset, int len)}: on each
 * level-triggered EPOLLIN the event loop creates a pipe (pipe2(2)), splice(2)s socket → pipe (non-blocking, at
 * most one receive-allocator guess, ≤ 64 KiB) and pipe → file at the offset, then closes the pipe. No byte
 * enters user space, so the server checksums the written file afterwards.
 *
 * <p>Limits of Netty 4.2.18 this method works within:
 * <ul>
 *   <li>{@code offset} and {@code len} are ints and the task advances the offset as an int
 *       ({@code SpliceFdTask.offset += splicedOut}), so no byte can be written at a file offset past
 *       {@link Integer#MAX_VALUE}: uploads longer than 2^31 - 1 bytes are refused before any byte is sent;</li>
 *   <li>{@code len == Integer.MAX_VALUE} means "splice forever", so the body is queued as chunks of at most
 *       {@link #CHUNK} bytes (all queued up front, in order, before reading starts, so no byte can reach the
 *       channel's ByteBuf read path between two chunks);</li>
 *   <li>spliceTo requires {@link EpollMode#LEVEL_TRIGGERED}, which Netty only accepts before the channel is
 *       registered, so the adopted channel is configured before registration.</li>
 * </ul>
 * The socket is switched to non-blocking for the transfer (the JDK keeps it blocking, and the dup shares the
 * flag) and back afterwards. Reading runs with auto-read on while the chunks are queued; when the last completes the connection thread
 * turns auto-read off on the event loop and waits for it, so nothing after the body (the next request) is ever
 * read by Netty: the client sends nothing before it has the upload's result.
 */
public final class EpollSpliceReceiver implements FileReceiver {
    /** Last file offset + 1 that Netty 4.2.18's int offset can reach. */
    static final long MAX_LENGTH = Integer.MAX_VALUE;
    static final int CHUNK = 1 << 30;

    public static final ReceiverMethod METHOD = new DefinedReceiverMethod("epoll-splice",
            "Netty epoll spliceTo(FileDescriptor, int offset, int len): per EPOLLIN pipe2(2), splice(2) socket -> pipe -> file, close pipe; < 2 GiB in Netty 4.2.18",
            NettyTransport.EPOLL::availability, MAX_LENGTH,
            "Netty 4.2.18 AbstractEpollStreamChannel.spliceTo(FileDescriptor, int offset, int len) keeps the file offset in an int",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("splice"),
            options -> new EpollSpliceReceiver(NettyFutures.DEFAULT_STALL));

    private final Duration stall;
    private final AdoptedChannel channel = new AdoptedChannel(NettyTransport.EPOLL, c -> {
        ((EpollChannelConfig) c.config()).setEpollMode(EpollMode.LEVEL_TRIGGERED);
        // A peer that closes mid-body closes our duplicate, which fails the queued chunks.
        c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false);
    });

    EpollSpliceReceiver(Duration stall) {
        this.stall = stall;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        METHOD.checkSupported(length);
        long from = FileReceiver.writeAhead(ahead, file);
        if (from == length) {
            return NOT_CHECKSUMMED;
        }
        AbstractEpollStreamChannel ch = (AbstractEpollStreamChannel) channel.on(socket);
        FileDescriptor target = new FileDescriptor(Fds.of(file)); // not closed by Netty; the FileChannel owns it
        ChannelFuture last = null;
        // The JDK keeps its socket blocking, and the dup shares that flag: Netty's epoll loop expects EAGAIN, and
        // after the last chunk it tries one more plain read, which on a blocking fd would hang the loop.
        socket.configureBlocking(false);
        try {
            for (long pos = from; pos < length; pos += CHUNK) {
                int len = (int) Math.min(CHUNK, length - pos);
                last = ch.spliceTo(target, (int) pos, len);
                last.addListener(f -> {
                    if (!f.isSuccess()) {
                        ch.close(); // fails the chunks behind it: none may write at its offsets
                    }
                });
            }
            ch.config().setAutoRead(true);
            try {
                NettyFutures.await(last, () -> sizeOf(file), stall, "epoll-splice upload", Fds.of(socket));
            } catch (ClosedChannelException e) {
                // Netty closes the channel when the peer hangs up, and fails the queued chunks with this.
                EOFException eof = new EOFException("connection closed with at most " + sizeOf(file) + " of " + length
                        + " body bytes written");
                eof.initCause(e);
                throw eof;
            }
            // The loop may still be finishing the epollInReady that completed the last chunk; once this returns
            // EPOLLIN is off and Netty reads nothing more.
            NettyFutures.onLoop(ch, () -> ch.config().setAutoRead(false));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        } finally {
            socket.configureBlocking(true);
        }
        return NOT_CHECKSUMMED;
    }

    private static long sizeOf(FileChannel file) {
        try {
            return file.size();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        channel.close();
    }
}
