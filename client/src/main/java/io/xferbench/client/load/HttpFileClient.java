package io.xferbench.client.load;

import io.xferbench.core.protocol.Frames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One blocking, kept-alive HTTP/1.1 connection for the requests around a run, never measured: the probe PUT before
 * it, reading back what it placed and deleting what it left after it. Reopened when the server closes.
 */
final class HttpFileClient implements AutoCloseable {
    private final InetSocketAddress server;
    private final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
    private SocketChannel channel;

    HttpFileClient(InetSocketAddress server) {
        this.server = server;
    }

    /** Sends one request and reads its answer; an I/O failure or a malformed answer is an outcome, not an exception. */
    ExchangeOutcome send(ByteBuffer request, ResponseParser parser) {
        try {
            if (channel == null) {
                channel = SocketChannel.open(server);
            }
            Frames.writeFully(channel, request);
            while (true) {
                if (channel.read(in.clear()) < 0) {
                    throw new IOException("closed mid-response");
                }
                in.flip();
                if (parser.feed(in)) {
                    break;
                }
            }
            // After a refusal the server may not have read the request's body: what follows on this connection is unknown.
            if (parser.closesConnection() || !parser.outcome().ok()) {
                closeChannel();
            }
            return parser.outcome();
        } catch (IOException e) {
            closeChannel();
            return ExchangeOutcome.failed("io: " + e.getMessage(), 0);
        } catch (LoadProtocolException e) {
            closeChannel();
            return ExchangeOutcome.failed("protocol: " + e.getMessage(), 0);
        }
    }

    /**
     * GETs every name and checks its length and CRC32C against what the run uploaded.
     *
     * @return how many were read back, and the failures by cause (prefixed {@code read-back})
     */
    ReadBack readBack(String hostHeader, List<String> names, long size, int crc) {
        Map<String, Long> errors = new TreeMap<>();
        for (String name : names) {
            ExchangeOutcome o = send(new HttpGetExchange(hostHeader, "/" + name, false, size, crc).request(),
                    new HttpResponseParser(200, false, size, crc));
            if (!o.ok()) {
                errors.merge("read-back: " + o.error(), 1L, Long::sum);
            }
        }
        return new ReadBack(names.size(), errors);
    }

    /** @return how many DELETEs were answered OK or 404 (gone either way) */
    int deleteAll(HttpDeleteExchange delete, List<String> names) {
        int gone = 0;
        for (String name : names) {
            ExchangeOutcome o = send(delete.request(name), delete.newParser());
            if (o.ok() || o.absent()) {
                gone++;
            }
        }
        return gone;
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Closing a connection we are done with: nothing to report.
            }
            channel = null;
        }
    }

    @Override
    public void close() {
        closeChannel();
    }
}
