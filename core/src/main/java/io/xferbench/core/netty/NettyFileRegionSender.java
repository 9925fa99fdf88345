package io.xferbench.core.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.DefaultFileRegion;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.SocketChannel;

/**
 * Sends a file as Netty {@link DefaultFileRegion}s on a socket adopted by a Netty transport. The adopted
 * channel lives as long as the connection, so repeated downloads pay the adoption once.
 */
public final class NettyFileRegionSender implements FileSender {
    private final NettyTransport transport;
    private final long maxRegion;
    private final long maxEndOffset;
    private final String limitReason;
    private final AdoptedChannel adopted;

    /**
     * @param maxRegion    largest region handed to Netty in one write
     * @param maxEndOffset file offset no byte may be sent from, or Long.MAX_VALUE
     * @param limitReason  why {@code maxEndOffset} exists, for the error
     */
    public NettyFileRegionSender(NettyTransport transport, long maxRegion, long maxEndOffset, String limitReason) {
        this.transport = transport;
        this.maxRegion = maxRegion;
        this.maxEndOffset = maxEndOffset;
        this.limitReason = limitReason;
        this.adopted = new AdoptedChannel(transport, channel -> {
        });
    }

    @Override
    public void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
        if (position + length > maxEndOffset) {
            throw new UnsupportedTransferException("cannot send bytes at file offsets >= " + maxEndOffset + " (file is "
                    + file.size() + " bytes): " + limitReason);
        }
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        checkSupported(file, position, length);
        if (length == 0) {
            return;
        }
        Channel channel = adopted.on(socket);
        // Netty expects the non-blocking socket its own accept would have made; the JDK side wants its own mode back
        // for the trailer and the next request: blocking on a platform thread, non-blocking on a virtual thread (the
        // JDK parks it on its poller; a blocking fd there would hold a carrier in read(2) and starve the others).
        int fd = Fds.of(socket);
        boolean wasNonBlocking = Fds.isNonBlocking(fd);
        Fds.setNonBlocking(fd, true);
        try {
            long pos = position;
            long end = position + length;
            ChannelFuture last = null;
            while (pos < end) {
                long n = Math.min(maxRegion, end - pos);
                // The File form opens its own descriptor: a region closes its file when released.
                last = channel.write(new DefaultFileRegion(file.reopenPath().toFile(), pos, n));
                pos += n;
            }
            channel.flush();
            last.sync();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while Netty " + transport + " was sending");
        } catch (Exception e) {
            adopted.close();
            throw e instanceof IOException io ? io : new IOException("Netty " + transport + " send failed: " + e, e);
        } finally {
            if (socket.isOpen()) {
                Fds.setNonBlocking(fd, wasNonBlocking);
            }
        }
    }

    @Override
    public void close() {
        adopted.close();
    }
}
