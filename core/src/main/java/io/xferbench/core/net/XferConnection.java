package io.xferbench.core.net;

import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Trailer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/** A client connection to an xferbench server; requests run one after another on it. Not thread-safe. */
public final class XferConnection implements AutoCloseable {
    private final SocketChannel channel;
    private final String token;
    private final BodyReceiver receiver = new BodyReceiver();

    private XferConnection(SocketChannel channel, String token) {
        this.channel = channel;
        this.token = token == null ? "" : token;
    }

    public static XferConnection open(String host, int port, String token) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.connect(new InetSocketAddress(host, port));
            return new XferConnection(ch, token);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    public SocketChannel channel() {
        return channel;
    }

    /** Downloads and verifies; a server-side failure surfaces as {@link io.xferbench.core.protocol.RemoteException}. */
    public DownloadResult download(Request request) throws IOException {
        long start = System.nanoTime();
        send(request);
        DownloadHeader header = ResponseCodec.readDownloadHeader(channel);
        boolean checksum = request.has(Flags.VERIFY_CRC32C);
        int crc = receiver.receive(channel, header.length(), checksum);
        long clientNanos = System.nanoTime() - start;
        Trailer trailer = ResponseCodec.readTrailer(channel);
        return new DownloadResult(header.length(), header.length(), checksum, header.crc32c(), crc,
                clientNanos, trailer.serverNanos(), header.residencyPermille(), trailer.residencyPermille());
    }

    /** INFO, MEASURE_BEGIN, MEASURE_END: a JSON answer. */
    public byte[] control(Op op) throws IOException {
        send(Request.control(op));
        return ResponseCodec.readJson(channel);
    }

    private void send(Request request) throws IOException {
        Frames.writeFully(channel, RequestCodec.encode(request.withToken(token)));
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
