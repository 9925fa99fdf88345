package io.xferbench.jmh.tls;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A client and a server {@link SSLEngine} joined in memory: no socket, so what is measured is the engines' work alone
 * (record framing, AEAD, copies between the caller's buffers and the engine's), and no syscall is made. Records pass
 * through two buffers, one per direction, which stand in for the two socket directions.
 *
 * <p>{@link #handshake()} runs the full TLS handshake, delegated tasks inline, and then delivers whatever the server
 * sent after it (TLS 1.3's NewSessionTicket), so the first application record is the first thing left to read.
 * {@link #send} is the download direction: the server wraps, the client unwraps.
 */
public final class EnginePair {
    /** The most {@link #send} takes at once: with its records it fits the wire's buffers. */
    public static final int MAX_SEND = Wire.BYTES / 2;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** A handshake in memory takes a few rounds; this many without an end is a stuck engine. */
    private static final int MAX_ROUNDS = 100;

    private final SSLEngine client;
    private final SSLEngine server;
    private final ByteBuffer toClient;
    private final ByteBuffer toServer;
    private final ByteBuffer scratch;

    /** {@code wire}'s buffers are this pair's until the next pair on it: one pair at a time per wire. */
    public EnginePair(SSLEngine client, SSLEngine server, Wire wire) {
        if (!client.getUseClientMode() || server.getUseClientMode()) {
            throw new IllegalArgumentException("a client engine and a server engine expected");
        }
        this.client = client;
        this.server = server;
        this.toClient = wire.toClient.clear();
        this.toServer = wire.toServer.clear();
        this.scratch = wire.scratch.clear();
    }

    /**
     * The buffers records pass through, allocated once and reused by each pair (a handshake per op would otherwise
     * allocate, and free through the GC, this much direct memory per op).
     */
    public static final class Wire {
        /** Far more than any handshake flight or batch of records here: an overflow would be a bug, and fails. */
        static final int BYTES = 1 << 18;
        /** Records in flight, in write mode between calls. */
        final ByteBuffer toClient = ByteBuffer.allocateDirect(BYTES);
        final ByteBuffer toServer = ByteBuffer.allocateDirect(BYTES);
        /** Where the handshake's unwraps would put application bytes, of which there must be none. */
        final ByteBuffer scratch = ByteBuffer.allocateDirect(BYTES);
    }

    public SSLEngine client() {
        return client;
    }

    public SSLEngine server() {
        return server;
    }

    /** The full handshake, then the server's post-handshake messages read by the client. */
    public void handshake() throws SSLException {
        client.beginHandshake();
        server.beginHandshake();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean moved = step(client, toClient, toServer) | step(server, toServer, toClient);
            if (done(client) && done(server) && toClient.position() == 0 && toServer.position() == 0) {
                return;
            }
            if (!moved) {
                throw new SSLException("handshake stuck: client " + client.getHandshakeStatus() + ", server " + server.getHandshakeStatus()
                        + ", " + toServer.position() + " bytes to the server, " + toClient.position() + " to the client");
            }
        }
        throw new SSLException("handshake not done after " + MAX_ROUNDS + " rounds");
    }

    private static boolean done(SSLEngine e) {
        HandshakeStatus s = e.getHandshakeStatus();
        return s == HandshakeStatus.NOT_HANDSHAKING || s == HandshakeStatus.FINISHED;
    }

    /** What {@code engine} can do now with {@code in} (records for it) and {@code out} (its records); whether it did anything. */
    private boolean step(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
        boolean moved = false;
        while (true) {
            HandshakeStatus status = engine.getHandshakeStatus();
            switch (status) {
                case NEED_TASK -> {
                    for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                        task.run();
                    }
                    moved = true;
                }
                case NEED_WRAP -> {
                    SSLEngineResult r = engine.wrap(EMPTY, out);
                    requireOk(engine, "wrap", r);
                    if (r.bytesProduced() == 0 && r.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
                        return moved;
                    }
                    moved = true;
                }
                default -> {
                    // NEED_UNWRAP, or done with records still for it (a ticket after the client's Finished).
                    if (status != HandshakeStatus.NEED_UNWRAP && in.position() == 0) {
                        return moved;
                    }
                    in.flip();
                    SSLEngineResult r = engine.unwrap(in, scratch);
                    in.compact();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW || r.bytesConsumed() == 0 && r.getHandshakeStatus() == status) {
                        return moved; // waits for the peer
                    }
                    requireOk(engine, "unwrap", r);
                    if (scratch.position() != 0) {
                        throw new SSLException((engine.getUseClientMode() ? "client" : "server") + " unwrapped "
                                + scratch.position() + " application bytes during the handshake");
                    }
                    moved = true;
                }
            }
        }
    }

    /**
     * Server → client: wraps all of {@code data} (position to limit; the JDK's engine takes one record of at most 16 KiB
     * per call, OpenSSL's as much as fits) and unwraps every record into {@code into}, cleared first and flipped after.
     * {@code data}'s position ends at its limit.
     *
     * @return the bytes the client got
     */
    public int send(ByteBuffer data, ByteBuffer into) throws SSLException {
        if (data.remaining() > MAX_SEND) {
            throw new IllegalArgumentException(data.remaining() + " bytes at once: at most " + MAX_SEND);
        }
        while (data.hasRemaining()) {
            SSLEngineResult r = server.wrap(data, toClient);
            if (r.getStatus() != SSLEngineResult.Status.OK || r.bytesConsumed() == 0) {
                throw new SSLException("server wrap: " + r);
            }
        }
        toClient.flip();
        into.clear();
        while (toClient.hasRemaining()) {
            SSLEngineResult r = client.unwrap(toClient, into);
            if (r.getStatus() != SSLEngineResult.Status.OK || r.bytesConsumed() == 0) {
                throw new SSLException("client unwrap: " + r);
            }
        }
        toClient.clear();
        return into.flip().remaining();
    }

    private static void requireOk(SSLEngine engine, String call, SSLEngineResult r) throws SSLException {
        if (r.getStatus() != SSLEngineResult.Status.OK) {
            throw new SSLException((engine.getUseClientMode() ? "client " : "server ") + call + " during the handshake: " + r);
        }
    }
}
