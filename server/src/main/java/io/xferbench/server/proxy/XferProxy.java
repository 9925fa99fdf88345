package io.xferbench.server.proxy;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.NetworkLinks;
import io.xferbench.core.net.NoAnswerException;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.server.InternalErrors;
import io.xferbench.server.InternalFaultProbe;
import io.xferbench.server.Refused;
import io.xferbench.server.ServerInfo;
import io.xferbench.server.Tokens;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.BufferMemoryLimit;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.limits.LingeringClose;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.thread.BoundedAcceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

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
 */
public final class XferProxy implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(XferProxy.class.getName());
    private static final Duration RELAY_BUDGET = Duration.ofDays(365);

    private final ProxyConfig config;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Measurements measurements = new Measurements(MeasurementReport.PROXY);
    private final ConnectionRegistry registry = new ConnectionRegistry();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final BufferBudget budget;
    private BoundedAcceptor acceptor;

    private XferProxy(ProxyConfig config) {
        this.config = config;
        this.budget = new BufferBudget(BufferMemoryLimit.within(config.maxBufferMemory()));
    }

    public static XferProxy start(ProxyConfig config) throws IOException {
        RelayMethod relay = RelayMethods.byId(config.defaultRelay()).orElseThrow(() -> new IllegalArgumentException(
                "unknown relay '" + config.defaultRelay() + "' (known: " + String.join(", ", RelayMethods.ids()) + ")"));
        if (!relay.availability().isAvailable()) {
            throw new IllegalArgumentException("relay " + relay.id() + " is unavailable here: " + relay.availability().unavailableReason());
        }
        XferProxy proxy = new XferProxy(config);
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
        int conn = connectionIds.incrementAndGet();
        open.add(client);
        registry.add(conn, client);
        SocketChannel upstream = null;
        long reserved = 0;
        AtomicReference<Measurements.Window> window = new AtomicReference<>();
        String peer = "unknown";
        // Named only in a failure's log; and once relaying, no error frame may go to the client.
        Request current = null;
        boolean relaying = false;
        // Not try-with-resources: that would close the client before a catch below could answer it.
        try {
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            peer = WindowOverlap.address(client.getRemoteAddress());
            RelayMethod method;
            TransferOptions options;
            // The most proxies a frame on this connection had passed: every later frame comes through the same ones
            // (the client's own say 0), so it counts from there; else each request on the connection a loop ended on
            // would send the loop round again.
            int hops = 0;
            while (true) {
                // A client that never sends its first frame must not pin this thread (slowloris).
                registry.enter(conn, ConnectionRegistry.State.AWAITING_REQUEST, Measurements.requestWait(config.idleTimeout(), window.get() != null));
                current = null;
                Request first = RequestCodec.read(client);
                if (first == null) {
                    return;
                }
                current = first;
                // Relaying has no deadline of its own: the upstream's timeouts end idle relays.
                registry.enter(conn, ConnectionRegistry.State.BUSY, RELAY_BUDGET);
                if (!authorized(first)) {
                    // As the server answers; before anything is answered about the proxy or reaches the upstream.
                    answer(client, Status.FORBIDDEN, "missing or wrong token");
                    LingeringClose.drain(client, registry, conn);
                    return;
                }
                if (Request.PROXY_SELF.equals(first.method()) && answerSelf(client, first.op(), conn, window)) {
                    continue;
                }
                hops = Math.max(hops, first.hops());
                if (hops >= Wire.MAX_PROXY_HOPS) {
                    // Proxies relaying to each other (A -> B -> A) would otherwise connect until every slot is taken.
                    answer(client, Status.SERVER_ERROR, "proxy loop? this request has passed " + hops + " proxies, "
                            + "the most one is forwarded through (" + Wire.MAX_PROXY_HOPS + "); this proxy relays to "
                            + config.upstreamHost() + ":" + config.upstreamPort());
                    continue;
                }
                InternalFaultProbe.at(InternalFaultProbe.Point.PROXY_SETUP, first.name());
                if (first.op() != Op.PROXY) {
                    RelayMethod d = RelayMethods.byId(config.defaultRelay()).orElseThrow();
                    TransferOptions o = new TransferOptions(config.bufferSize(), false);
                    if (!reserve(client, d, o)) {
                        continue;
                    }
                    reserved = d.bufferBytes(o);
                    method = d;
                    options = o;
                    upstream = connectUpstream(client, conn);
                    if (upstream == null) {
                        return;
                    }
                    // Forwarded as the client sent it (same fields, same token) but for one hop more: the upstream
                    // answers it, or, a proxy in a loop, counts it.
                    Frames.writeFully(upstream, RequestCodec.encode(first.withHops(hops).forwarded()));
                    break;
                }
                String id = first.method().isEmpty() ? config.defaultRelay() : first.method();
                RelayMethod m = RelayMethods.byId(id).orElse(null);
                if (m == null) {
                    answer(client, Status.BAD_REQUEST, "unknown relay '" + id + "' (known: " + String.join(", ", RelayMethods.ids()) + ")");
                    continue;
                }
                Availability a = m.availability();
                if (!a.isAvailable()) {
                    answer(client, Status.UNAVAILABLE, m.id() + ": " + a.unavailableReason());
                    continue;
                }
                options = new TransferOptions(first.bufferSize() > 0 ? first.bufferSize() : config.bufferSize(), false);
                if (options.bufferSize() < m.minBufferSize()) {
                    // Relayed anyway, it would be measured as a buffer it does not have.
                    answer(client, Status.BAD_REQUEST, m.id() + ": relay buffer " + options.bufferSize() + " is below "
                            + m.minBufferSize() + ", the least that takes effect");
                    continue;
                }
                if (!reserve(client, m, options)) {
                    continue;
                }
                reserved = m.bufferBytes(options);
                upstream = connectUpstream(client, conn);
                if (upstream == null) {
                    budget.release(reserved);
                    reserved = 0;
                    continue;
                }
                method = m;
                Frames.writeFully(client, ResponseCodec.proxyReady(m.id()));
                break;
            }
            open.add(upstream);
            measurements.started(conn, peer);
            try (Relay relay = newRelay(method, options, current)) {
                // From here bytes of the upstream's answer may reach the client: no error frame may go before them.
                relaying = true;
                InternalFaultProbe.at(InternalFaultProbe.Point.PROXY_RELAY, current.name());
                Relay.Relayed r = relay.relay(client, upstream);
                LOG.fine(() -> method.id() + " relayed " + r.clientToUpstream() + " bytes up, " + r.upstreamToClient() + " down");
            } finally {
                measurements.finished(conn);
            }
        } catch (ProtocolException e) {
            LOG.info(() -> "proxy: bad first frame: " + e.getMessage());
            answerQuietly(client, e.status(), e.getMessage());
            LingeringClose.drain(client, registry, conn);
        } catch (IOException e) {
            LOG.info(() -> "proxy: connection ended by an error: " + e);
        } catch (RuntimeException | Error e) {
            // As the server's: logged with client and request, and told to the client while nothing was relayed.
            InternalErrors.report("proxy", peer, current, e);
            if (!relaying) {
                // On the PROXY frame's path the client has "proxy ready": this is the answer to its first request.
                answerQuietly(client, Status.SERVER_ERROR, InternalErrors.clientReason(e));
                // Neither the relay's buffer budget nor the upstream connection is held through the linger.
                budget.release(reserved);
                reserved = 0;
                if (upstream != null) {
                    open.remove(upstream);
                    closeQuietly(upstream);
                    upstream = null;
                }
                LingeringClose.drain(client, registry, conn);
            }
        } finally {
            Measurements.Window left = window.getAndSet(null);
            if (left != null) {
                // A client gone mid-window must not leave its perf counter running.
                left.close();
            }
            budget.release(reserved);
            registry.remove(conn);
            open.remove(client);
            if (upstream != null) {
                open.remove(upstream);
                closeQuietly(upstream);
            }
            closeQuietly(client);
        }
    }

    private boolean authorized(Request request) {
        return config.token().isEmpty() || Tokens.matches(config.token(), request.token());
    }

    /** Builds the connection's relay; a test may make that fail ({@link InternalFaultProbe.Point#PROXY_NEW_RELAY}). */
    private static Relay newRelay(RelayMethod method, TransferOptions options, Request request) throws IOException {
        InternalFaultProbe.at(InternalFaultProbe.Point.PROXY_NEW_RELAY, request.name());
        return method.newRelay(options);
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing left to do with it.
        }
    }

    /**
     * INFO, MEASURE_BEGIN and MEASURE_END with method {@link Request#PROXY_SELF} before any PROXY frame are about
     * the proxy itself: its pid, environment and relays, and a measurement window (CPU time and perf-counted
     * syscalls of this process, relay threads born in it included) as the server's. The connection stays here.
     *
     * @return false for any other op (then the frame is handled as usual)
     */
    private boolean answerSelf(SocketChannel client, Op op, int conn, AtomicReference<Measurements.Window> window) throws IOException {
        switch (op) {
            case INFO -> Frames.writeFully(client, ResponseCodec.json(ProtocolJson.write(selfInfo(client))));
            case MEASURE_BEGIN -> {
                Measurements.Window previous = window.getAndSet(null);
                if (previous != null) {
                    previous.close();
                }
                try {
                    window.set(measurements.begin(conn, true));
                } catch (Refused e) {
                    answer(client, e.status, e.getMessage());
                    return true;
                }
                Frames.writeFully(client, ResponseCodec.json("{\"process\":\"proxy\"}".getBytes(StandardCharsets.UTF_8)));
            }
            case MEASURE_END -> {
                Measurements.Window w = window.getAndSet(null);
                if (w == null) {
                    answer(client, Status.BAD_REQUEST, "MEASURE_END without MEASURE_BEGIN on this connection");
                    return true;
                }
                Frames.writeFully(client, ResponseCodec.json(ProtocolJson.write(w.end())));
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private ServerDescription selfInfo(SocketChannel client) throws IOException {
        return ServerDescription.proxy(config.upstreamHost() + ":" + config.upstreamPort(), config.defaultRelay(),
                config.bufferSize(), EnvironmentInfo.describe(null), ServerInfo.relays(),
                NetworkLinks.of(((InetSocketAddress) client.getLocalAddress()).getAddress()));
    }

    /**
     * Reserves the relay's buffers from the budget before they are allocated (256 connections of 64 MiB buffers
     * would otherwise take the proxy to an OutOfMemoryError); if they do not fit, answers BUSY.
     *
     * @return whether {@code method.bufferBytes(options)} are now reserved
     */
    private boolean reserve(SocketChannel client, RelayMethod method, TransferOptions options) throws IOException {
        long bytes = method.bufferBytes(options);
        if (budget.tryReserve(bytes)) {
            return true;
        }
        answer(client, Status.BUSY, "relay buffers of " + budget.reserved() + " bytes are in use proxy-wide; " + method.id()
                + " with a " + options.bufferSize() + "-byte buffer needs " + bytes + " more, past --max-buffer-memory " + budget.limit());
        return false;
    }

    /** Connects to the upstream; if it cannot, tells the client and returns null. */
    private SocketChannel connectUpstream(SocketChannel client, int conn) throws IOException {
        String upstreamName = config.upstreamHost() + ":" + config.upstreamPort();
        // Resolved per connection: a name that does not resolve now may later.
        InetSocketAddress address = new InetSocketAddress(config.upstreamHost(), config.upstreamPort());
        if (address.isUnresolved()) {
            answer(client, Status.SERVER_ERROR, "proxy cannot reach upstream " + upstreamName + ": cannot resolve host");
            return null;
        }
        SocketChannel upstream = SocketChannel.open();
        try {
            upstream.setOption(StandardSocketOptions.TCP_NODELAY, true);
            // A connect that stalls is a stall inside a request: bounded by --idle-timeout, not the kernel's SYN retries
            // (about two minutes of a thread and a slot per client, while the client's own timeout blamed the proxy).
            // The reaper interrupts a late connect: no timer, and no syscall more per connection than the connect.
            registry.enter(conn, ConnectionRegistry.State.CONNECTING, config.idleTimeout());
            try {
                upstream.connect(address);
            } catch (ClosedByInterruptException late) {
                Thread.interrupted();
                throw new IOException("did not accept within " + NoAnswerException.format(config.idleTimeout()));
            } finally {
                registry.connected(conn, RELAY_BUDGET);
            }
            return upstream;
        } catch (IOException e) {
            upstream.close();
            answer(client, Status.SERVER_ERROR, "proxy cannot reach upstream " + upstreamName + ": " + e.getMessage());
            return null;
        }
    }

    private static void answer(SocketChannel client, Status status, String message) throws IOException {
        Frames.writeFully(client, ResponseCodec.error(status, message));
    }

    private static void answerQuietly(SocketChannel client, Status status, String message) {
        try {
            answer(client, status, message);
        } catch (IOException ignored) {
            // The client is gone.
        }
    }

    @Override
    public void close() throws IOException {
        acceptor.stopAccepting();
        for (SocketChannel s : open) {
            // Shut the sockets themselves down first: a Netty relay works on duplicates of their fds, which a
            // close of the JDK's descriptor alone would leave running.
            try {
                s.shutdownInput();
                s.shutdownOutput();
            } catch (IOException ignored) {
                // Already shut down or closed.
            }
            closeQuietly(s);
        }
        acceptor.stopConnections();
        registry.close();
        measurements.close();
    }
}
