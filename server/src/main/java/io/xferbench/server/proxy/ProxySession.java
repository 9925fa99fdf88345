package io.xferbench.server.proxy;

import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.protocol.Wire;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.request.Tokens;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.limits.LingeringClose;
import io.xferbench.server.measure.Measurements;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * One client's connection to the proxy, on its own thread: first frames are read until one opens a relay (the
 * proxy's own answers, refusals and a PROXY client's retries in between), then client and upstream are relayed
 * until the connection is over. A failure of the proxy's own is answered while nothing of the upstream's has reached
 * the client, and logged either way.
 */
final class ProxySession {
    private static final Logger LOG = Logger.getLogger(XferProxy.class.getName());
    /** Relaying has no deadline of its own: the upstream's timeouts end idle relays. */
    private static final Duration RELAY_BUDGET = Duration.ofDays(365);

    /** What a first frame leads to. */
    private enum Next { READ_FRAME, RELAY, END }

    private final ProxyShared shared;
    private final ProxyConfig config;
    private final ConnectionRegistry registry;
    private final SocketChannel client;
    private final int conn;
    private final SelfAnswers self;
    private String peer = "unknown";
    /** The frame being handled, named only in a failure's log. */
    private Request current;
    /** Set once bytes of the upstream's answer may reach the client: no error frame may go before them. */
    private boolean relaying;
    /**
     * The most proxies a frame on this connection had passed: every later frame comes through the same ones (the
     * client's own say 0), so it counts from there; else each request on the connection a loop ended on would send
     * the loop round again.
     */
    private int hops;
    private RelayChoice.Chosen chosen;
    /** Of the proxy-wide buffer budget, held until the connection ends or its relay is given up. */
    private long reserved;
    private SocketChannel upstream;

    ProxySession(ProxyShared shared, SocketChannel client, int conn) {
        this.shared = shared;
        this.config = shared.config();
        this.registry = shared.registry();
        this.client = client;
        this.conn = conn;
        this.self = new SelfAnswers(config, shared.measurements(), client, conn);
    }

    void run() {
        shared.sockets().add(client);
        registry.add(conn, client);
        // Not try-with-resources: that would close the client before a catch below could answer it.
        try {
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            peer = WindowOverlap.address(client.getRemoteAddress());
            if (openRelay()) {
                relay();
            }
        } catch (ProtocolException e) {
            LOG.info(() -> "proxy: bad first frame: " + e.getMessage());
            ProxyAnswers.errorQuietly(client, e.status(), e.getMessage());
            LingeringClose.drain(client, registry, conn);
        } catch (IOException e) {
            LOG.info(() -> "proxy: connection ended by an error: " + e);
        } catch (RuntimeException | Error e) {
            failed(e);
        } finally {
            end();
        }
    }

    /** Reads first frames until one opens a relay; @return false when the connection ends instead */
    private boolean openRelay() throws IOException {
        while (true) {
            // A client that never sends its first frame must not pin this thread (slowloris).
            registry.enter(conn, ConnectionRegistry.State.AWAITING_REQUEST, Measurements.requestWait(config.idleTimeout(), self.windowOpen()));
            current = null;
            Request first = RequestCodec.read(client);
            if (first == null) {
                return false;
            }
            current = first;
            registry.enter(conn, ConnectionRegistry.State.BUSY, RELAY_BUDGET);
            Next next = handle(first);
            if (next != Next.READ_FRAME) {
                return next == Next.RELAY;
            }
        }
    }

    private Next handle(Request first) throws IOException {
        if (!authorized(first)) {
            // As the server answers; before anything is answered about the proxy or reaches the upstream.
            ProxyAnswers.error(client, Status.FORBIDDEN, "missing or wrong token");
            LingeringClose.drain(client, registry, conn);
            return Next.END;
        }
        if (Request.PROXY_SELF.equals(first.method()) && self.answer(first.op())) {
            return Next.READ_FRAME;
        }
        hops = Math.max(hops, first.hops());
        if (hops >= Wire.MAX_PROXY_HOPS) {
            // Proxies relaying to each other (A -> B -> A) would otherwise connect until every slot is taken.
            ProxyAnswers.error(client, Status.SERVER_ERROR, "proxy loop? this request has passed " + hops + " proxies, "
                    + "the most one is forwarded through (" + Wire.MAX_PROXY_HOPS + "); this proxy relays to "
                    + config.upstreamHost() + ":" + config.upstreamPort());
            return Next.READ_FRAME;
        }
        return connect(first);
    }

    /**
     * Reserves the relay's buffers and connects upstream; then a PROXY frame is answered "proxy ready", any other is
     * forwarded. A PROXY client told why neither worked may ask again; a plain one's request has had its answer.
     */
    private Next connect(Request first) throws IOException {
        switch (shared.setup().choose(first)) {
            case RelayChoice.Refused r -> {
                ProxyAnswers.error(client, r.status(), r.reason());
                return Next.READ_FRAME;
            }
            case RelayChoice.Chosen c -> {
                chosen = c;
                reserved = c.reserved();
            }
        }
        boolean proxyFrame = first.op() == Op.PROXY;
        upstream = shared.upstream().connect(client, conn, RELAY_BUDGET);
        if (upstream == null) {
            if (!proxyFrame) {
                return Next.END;
            }
            shared.setup().release(reserved);
            reserved = 0;
            return Next.READ_FRAME;
        }
        if (proxyFrame) {
            Frames.writeFully(client, ResponseCodec.proxyReady(chosen.method().id()));
        } else {
            // Forwarded as the client sent it (same fields, same token) but for one hop more: the upstream answers
            // it, or, a proxy in a loop, counts it.
            Frames.writeFully(upstream, RequestCodec.encode(first.withHops(hops).forwarded()));
        }
        return Next.RELAY;
    }

    private void relay() throws IOException {
        shared.sockets().add(upstream);
        shared.measurements().started(conn, peer);
        RelayMethod method = chosen.method();
        TransferOptions options = chosen.options();
        try (Relay r = shared.relays().newRelay(method, options)) {
            relaying = true;
            Relay.Relayed moved = r.relay(client, upstream);
            LOG.fine(() -> method.id() + " relayed " + moved.clientToUpstream() + " bytes up, " + moved.upstreamToClient() + " down");
        } finally {
            shared.measurements().finished(conn);
        }
    }

    /** As the server's: logged with client and request, and told to the client while nothing was relayed. */
    private void failed(Throwable e) {
        InternalErrors.report("proxy", peer, current, e);
        if (relaying) {
            return;
        }
        // On the PROXY frame's path the client has "proxy ready": this is the answer to its first request.
        ProxyAnswers.errorQuietly(client, Status.SERVER_ERROR, InternalErrors.clientReason(e));
        // Neither the relay's buffer budget nor the upstream connection is held through the linger.
        releaseBuffers();
        closeUpstream();
        LingeringClose.drain(client, registry, conn);
    }

    private void end() {
        self.close();
        releaseBuffers();
        registry.remove(conn);
        closeUpstream();
        shared.sockets().close(client);
    }

    private boolean authorized(Request request) {
        return config.token().isEmpty() || Tokens.matches(config.token(), request.token());
    }

    private void releaseBuffers() {
        shared.setup().release(reserved);
        reserved = 0;
    }

    private void closeUpstream() {
        if (upstream != null) {
            shared.sockets().close(upstream);
            upstream = null;
        }
    }
}
