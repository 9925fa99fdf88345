package io.xferbench.server.proxy;

import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.request.Refused;
import io.xferbench.server.measure.Measurements;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * INFO, MEASURE_BEGIN and MEASURE_END with method {@link Request#PROXY_SELF} before any PROXY frame are about the
 * proxy itself: its pid, environment and relays, and a measurement window (CPU time and perf-counted syscalls of
 * this process, relay threads born in it included) as the server's. One per connection, which holds its window;
 * the connection stays with the proxy.
 */
final class SelfAnswers implements AutoCloseable {
    private final ProxyConfig config;
    private final Measurements measurements;
    private final SocketChannel client;
    private final int conn;
    private Measurements.Window window;

    SelfAnswers(ProxyConfig config, Measurements measurements, SocketChannel client, int conn) {
        this.config = config;
        this.measurements = measurements;
        this.client = client;
        this.conn = conn;
    }

    boolean windowOpen() {
        return window != null;
    }

    /** @return false for any other op (then the frame is handled as usual) */
    boolean answer(Op op) throws IOException {
        switch (op) {
            case INFO -> Frames.writeFully(client, ResponseCodec.json(ProtocolJson.write(info())));
            case MEASURE_BEGIN -> begin();
            case MEASURE_END -> end();
            default -> {
                return false;
            }
        }
        return true;
    }

    private void begin() throws IOException {
        close();
        try {
            window = measurements.begin(conn, true);
        } catch (Refused e) {
            ProxyAnswers.error(client, e.status, e.getMessage());
            return;
        }
        Frames.writeFully(client, ResponseCodec.json("{\"process\":\"proxy\"}".getBytes(StandardCharsets.UTF_8)));
    }

    private void end() throws IOException {
        Measurements.Window w = window;
        window = null;
        if (w == null) {
            ProxyAnswers.error(client, Status.BAD_REQUEST, "MEASURE_END without MEASURE_BEGIN on this connection");
            return;
        }
        Frames.writeFully(client, ResponseCodec.json(ProtocolJson.write(w.end())));
    }

    private ServerDescription info() throws IOException {
        return ServerDescription.proxy(config.upstreamHost() + ":" + config.upstreamPort(), config.defaultRelay(),
                config.bufferSize(), EnvironmentInfo.describe(null), RelayDescriptions.all(),
                NetworkLinks.of(((InetSocketAddress) client.getLocalAddress()).getAddress()));
    }

    /** Closes a window left open: a client gone mid-window must not leave its perf counter running. */
    @Override
    public void close() {
        Measurements.Window left = window;
        window = null;
        if (left != null) {
            left.close();
        }
    }
}
