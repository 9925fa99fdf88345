package io.xferbench.server.proxy;

import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.BufferMemoryLimit;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.request.Refused;
import io.xferbench.server.request.Tokens;
import io.xferbench.server.thread.BoundedAcceptor;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The proxy mode of the server ({@code xferbench-server --proxy-to HOST:PORT [--relay METHOD]}): every accepted
 * connection is relayed, full duplex, to the upstream xferbench server with one relay method, so that a client
 * downloading or uploading through it measures the relay (client → proxy → upstream and back).
 *
 * <p>The relay method is chosen per connection by its first frame:
 * <ul>
 *   <li>a PROXY request ({@link Op#PROXY}, method = relay id or empty for the default, bufferSize = relay buffer
 *       or 0 for the default) is answered by the proxy itself: after connecting upstream, a "proxy ready" frame
 *       naming the relay in effect, or an error (unknown relay: BAD_REQUEST; unavailable: UNAVAILABLE; upstream
 *       unreachable: SERVER_ERROR), after which the client may send another PROXY frame;</li>
 *   <li>any other request is forwarded unchanged to the upstream, and the connection is relayed with the
 *       default relay: a plain xferbench client works through the proxy without knowing it.</li>
 * </ul>
 * With a token ({@code --token}) the proxy refuses, as the server does, every frame it reads without it; it forwards
 * frames with the client's token unchanged (a relay cannot rewrite the later ones), and the upstream checks its own
 * token on every request it gets. Thread per connection, as the server.
 *
 * <p>INFO, MEASURE_BEGIN and MEASURE_END frames whose method is {@link Request#PROXY_SELF}, sent before any PROXY
 * frame, are answered by the proxy about itself (pid, relays, a CPU/syscall window of this process), so a client can
 * measure where the relays run; the connection stays with the proxy.
 *
 * <p>This class listens and owns what the connections share; each accepted one is a {@link ProxySession}.
 */
public final class XferProxy implements AutoCloseable {
    private final ProxyConfig config;
    private final OpenSockets sockets = new OpenSockets();
    private final Measurements measurements = new Measurements(MeasurementReport.PROXY);
    private final ConnectionRegistry registry = new ConnectionRegistry();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final ProxyShared shared;
    private BoundedAcceptor acceptor;

    private XferProxy(ProxyConfig config, UpstreamConnector connector, RelayFactory relays) {
        this.config = config;
        this.shared = new ProxyShared(config, registry, measurements, sockets, new RelaySetup(config),
                new UpstreamDial(config, registry, connector), relays);
    }

    public static XferProxy start(ProxyConfig config) throws IOException {
        return start(config, UpstreamConnector.DIRECT, RelayFactory.DIRECT);
    }

    /** A proxy whose upstream connections and relays come from {@code connector} and {@code relays}. */
    static XferProxy start(ProxyConfig config, UpstreamConnector connector, RelayFactory relays) throws IOException {
        RelaySetup.checkDefault(config);
        XferProxy proxy = new XferProxy(config, connector, relays);
        proxy.acceptor = BoundedAcceptor.start("proxy", config.bind(), config.port(), config.maxConnections(), proxy::serve);
        return proxy;
    }

    public int port() {
        return acceptor.port();
    }

    public String host() {
        return config.bind();
    }

    public ProxyConfig config() {
        return config;
    }

    /** Measurement windows open now (each belongs to one connection). */
    public int openMeasurementWindows() {
        return measurements.openWindows();
    }

    /** Connections being relayed (or opening) now. */
    public int activeConnections() {
        return acceptor.activeConnections();
    }

    /** Connection threads alive now, busy or idle (idle ones leave after 2 s). */
    public int workerThreads() {
        return acceptor.workerThreads();
    }

    private void serve(SocketChannel client) {
        new ProxySession(shared, client, connectionIds.incrementAndGet()).run();
    }

    @Override
    public void close() throws IOException {
        acceptor.stopAccepting();
        sockets.shutAll();
        acceptor.stopConnections();
        registry.close();
        measurements.close();
    }
}
