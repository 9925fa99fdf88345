package io.xferbench.core.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * One TLS session over a blocking {@link SocketChannel} already carrying the native protocol: the handshake, records
 * written and read, then the close dance that hands the socket back in clear (docs/tls.md, "How TLS runs here"). The
 * client closes first and the server answers; the server's close_notify is read exactly (header, then the record), never
 * past it, because the plaintext trailer follows it on the same socket.
 */
public final class TlsChannel implements ReadableByteChannel {
    private static final int RECORD_HEADER = 5;
    private static final int CONTENT_HANDSHAKE = 22;
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SocketChannel socket;
    private final SSLEngine engine;
    private final TlsBuffers buffers;
    private final String peer;
    private boolean peerClosed;
    private boolean readBefore;

    private TlsChannel(SocketChannel socket, SSLEngine engine, TlsBuffers buffers, String peer) {
        this.socket = socket;
        this.engine = engine;
        this.buffers = buffers;
        this.peer = peer;
        buffers.prepare(engine.getSession());
    }

    /** Handshakes as the server on {@code socket}; returns once the session is up. */
    public static TlsChannel accept(SocketChannel socket, TlsEndpoint tls, TlsBuffers buffers, String peer) throws IOException {
        TlsChannel channel = new TlsChannel(socket, tls.serverEngine(), buffers, peer);
        channel.handshake();
        return channel;
    }

    /** Handshakes as the client of {@code host:port} (the name its certificate must carry). */
    public static TlsChannel connect(SocketChannel socket, TlsEndpoint tls, TlsBuffers buffers, String host, int port) throws IOException {
        TlsChannel channel = new TlsChannel(socket, tls.clientEngine(host, port), buffers, host + ":" + port);
        channel.handshake();
        return channel;
    }

    /** The negotiated cipher suite, e.g. TLS_AES_128_GCM_SHA256. */
    public String cipherSuite() {
        return engine.getSession().getCipherSuite();
    }

    private void handshake() throws IOException {
        try {
            engine.beginHandshake();
            HandshakeStatus status = engine.getHandshakeStatus();
            while (status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED) {
                status = switch (status) {
                    case NEED_WRAP -> wrapAndWrite(NOTHING).getHandshakeStatus();
                    case NEED_TASK -> runTasks();
                    default -> unwrapOrRead();
                };
            }
        } catch (SSLException e) {
            sendAlert();
            throw new TlsException(TlsException.Kind.HANDSHAKE_FAILED, "TLS handshake with " + peer + " failed: " + reason(e), e);
        }
    }

    /** One handshake unwrap of what arrived, reading more when no whole record is there; the status after it. */
    private HandshakeStatus unwrapOrRead() throws IOException {
        SSLEngineResult result = unwrap();
        if (result.getStatus() == Status.BUFFER_UNDERFLOW) {
            fill(Integer.MAX_VALUE, true);
            return engine.getHandshakeStatus();
        }
        if (result.getStatus() == Status.CLOSED) {
            peerClosed = true;
        }
        return result.getHandshakeStatus();
    }

    /** One unwrap of the records that arrived into the channel's own buffer of decrypted bytes. */
    private SSLEngineResult unwrap() throws SSLException {
        ByteBuffer appIn = buffers.appIn().compact();
        try {
            return unwrap(appIn);
        } finally {
            appIn.flip();
        }
    }

    /**
     * Reads from the socket into the record buffer, at most {@code limit} bytes (the close dance's exact reads); the
     * first bytes a server reads must start a TLS handshake record.
     */
    private void fill(int limit, boolean handshaking) throws IOException {
        ByteBuffer netIn = buffers.netIn();
        if (!netIn.hasRemaining()) {
            throw new SSLException("no whole record fits the record buffer (" + netIn.capacity() + " bytes)");
        }
        int oldLimit = netIn.limit();
        if (limit < netIn.remaining()) {
            netIn.limit(netIn.position() + limit);
        }
        int n;
        try {
            n = socket.read(netIn);
        } finally {
            netIn.limit(oldLimit);
        }
        if (n < 0) {
            int held = netIn.position();
            throw new TlsException(TlsException.Kind.TRUNCATED, peer + " closed the connection "
                    + (held > 0 ? "in the middle of a TLS record (" + held + " bytes of it arrived)"
                    : handshaking ? "during the TLS handshake" : "without a TLS close_notify"), null);
        }
        if (!readBefore && !engine.getUseClientMode()) {
            checkLooksLikeTls(netIn);
        }
        readBefore = true;
    }

    /** A garbage ClientHello is told as what it is, not as the engine's "unrecognized SSL message". */
    private void checkLooksLikeTls(ByteBuffer netIn) throws TlsException {
        int arrived = netIn.position();
        if (arrived == 0 || netIn.get(0) == CONTENT_HANDSHAKE && (arrived < 2 || netIn.get(1) == 3)) {
            return;
        }
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < Math.min(arrived, 8); i++) {
            first.append(String.format("%02x", netIn.get(i) & 0xff));
        }
        throw new TlsException(TlsException.Kind.NOT_TLS, peer + " did not start a TLS handshake: its first bytes are "
                + first + ", not a TLS handshake record (a plaintext client on a TLS transfer?)", null);
    }

    private HandshakeStatus runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }

    /** Wraps {@code src} (or a handshake or close message) into records, as many as the buffer holds, and writes them. */
    private SSLEngineResult wrapAndWrite(ByteBuffer src) throws IOException {
        ByteBuffer netOut = buffers.netOut().clear();
        int packet = engine.getSession().getPacketBufferSize();
        SSLEngineResult result;
        do {
            result = engine.wrap(src, netOut);
            if (result.getStatus() == Status.BUFFER_OVERFLOW) {
                throw new SSLException("a record larger than the record buffer (" + netOut.capacity() + " bytes)");
            }
        } while (src.hasRemaining() && result.getStatus() == Status.OK && netOut.remaining() >= packet
                && result.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING);
        netOut.flip();
        while (netOut.hasRemaining()) {
            socket.write(netOut);
        }
        return result;
    }

    /** Encrypts and writes all of {@code src}, one record per 16 KiB. */
    public void write(ByteBuffer src) throws IOException {
        try {
            while (src.hasRemaining()) {
                SSLEngineResult result = wrapAndWrite(src);
                if (result.getStatus() == Status.CLOSED) {
                    throw new TlsException(TlsException.Kind.PROTOCOL, "TLS session with " + peer + " closed while writing", null);
                }
                if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
            }
        } catch (TlsException e) {
            throw e;
        } catch (SSLException e) {
            throw new TlsException(TlsException.Kind.PROTOCOL, "TLS write to " + peer + " failed: " + reason(e), e);
        }
    }

    /**
     * Reads decrypted bytes into {@code dst}: at least one unless {@code dst} is full; -1 once the peer's close_notify
     * came. A {@code dst} with room for a whole record gets records decrypted straight into it, as many as have arrived
     * (no copy through the channel's own buffer).
     */
    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        try {
            ByteBuffer appIn = buffers.appIn();
            int record = engine.getSession().getApplicationBufferSize();
            if (!appIn.hasRemaining() && dst.remaining() >= record) {
                int start = dst.position();
                while (dst.position() == start) {
                    if (peerClosed) {
                        return -1;
                    }
                    step(unwrap(dst));
                }
                while (dst.remaining() >= record && hasWholeRecord(buffers.netIn()) && !peerClosed) {
                    step(unwrap(dst)); // records already here: no read, no wait
                }
                return dst.position() - start;
            }
            while (!appIn.hasRemaining()) {
                if (peerClosed) {
                    return -1;
                }
                step(unwrap());
            }
            int n = Math.min(appIn.remaining(), dst.remaining());
            dst.put(dst.position(), appIn, appIn.position(), n).position(dst.position() + n);
            appIn.position(appIn.position() + n);
            return n;
        } catch (TlsException e) {
            throw e;
        } catch (SSLException e) {
            throw new TlsException(TlsException.Kind.PROTOCOL, "TLS read from " + peer + " failed: " + reason(e), e);
        }
    }

    /** After an unwrap while reading: more bytes when no whole record was there, the peer's close noted, tasks run. */
    private void step(SSLEngineResult result) throws IOException {
        switch (result.getStatus()) {
            case BUFFER_UNDERFLOW -> fill(Integer.MAX_VALUE, false);
            case CLOSED -> peerClosed = true;
            default -> {
            }
        }
        if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
            runTasks(); // a post-handshake message (TLS 1.3's NewSessionTicket)
        } else if (result.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            wrapAndWrite(NOTHING); // a key update answered
        }
    }

    /** One unwrap of the records that arrived into {@code dst} (fill mode). */
    private SSLEngineResult unwrap(ByteBuffer dst) throws SSLException {
        ByteBuffer netIn = buffers.netIn();
        netIn.flip();
        try {
            SSLEngineResult result = engine.unwrap(netIn, dst);
            if (result.getStatus() == Status.BUFFER_OVERFLOW) {
                throw new SSLException("a record larger than the room given (" + dst.remaining() + " bytes)");
            }
            return result;
        } finally {
            netIn.compact();
        }
    }

    /** The client's half of the close dance, after the whole body: its close_notify, then the server's, read exactly. */
    public void closeAsClient() throws IOException {
        sendCloseNotify();
        awaitCloseNotify();
    }

    /** The server's half: the client's close_notify (nothing follows it: the client waits), then its own. */
    public void closeAsServer() throws IOException {
        awaitCloseNotify();
        sendCloseNotify();
    }

    private void sendCloseNotify() throws IOException {
        engine.closeOutbound();
        while (!engine.isOutboundDone()) {
            wrapAndWrite(NOTHING);
        }
    }

    private void awaitCloseNotify() throws IOException {
        try {
            while (!engine.isInboundDone()) {
                if (buffers.appIn().hasRemaining()) {
                    throw new TlsException(TlsException.Kind.PROTOCOL, peer + " sent " + buffers.appIn().remaining()
                            + " bytes past the body instead of its TLS close_notify", null);
                }
                SSLEngineResult result = unwrap();
                if (result.getStatus() == Status.BUFFER_UNDERFLOW) {
                    fill(toRecordEnd(buffers.netIn()), false);
                } else if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
            }
        } catch (TlsException e) {
            throw e;
        } catch (SSLException e) {
            throw new TlsException(TlsException.Kind.PROTOCOL, "TLS close with " + peer + " failed: " + reason(e), e);
        }
    }

    /** Whether {@code netIn} (fill mode) starts with a whole record. */
    static boolean hasWholeRecord(ByteBuffer netIn) {
        int held = netIn.position();
        return held >= RECORD_HEADER && RECORD_HEADER + ((netIn.get(3) & 0xff) << 8 | netIn.get(4) & 0xff) <= held;
    }

    /** How many bytes complete the first unfinished record in {@code netIn} (fill mode): a read never goes past it. */
    static int toRecordEnd(ByteBuffer netIn) {
        int held = netIn.position();
        int at = 0;
        while (at + RECORD_HEADER <= held) {
            int length = (netIn.get(at + 3) & 0xff) << 8 | netIn.get(at + 4) & 0xff;
            if (at + RECORD_HEADER + length > held) {
                return at + RECORD_HEADER + length - held;
            }
            at += RECORD_HEADER + length;
        }
        return RECORD_HEADER - (held - at);
    }

    /** Tells the peer why the handshake ended (the engine's alert), if the socket still takes it. */
    private void sendAlert() {
        try {
            engine.closeOutbound();
            for (int i = 0; i < 4 && !engine.isOutboundDone(); i++) {
                wrapAndWrite(NOTHING);
            }
        } catch (IOException | RuntimeException ignored) {
            // the handshake's own failure is the one worth reporting
        }
    }

    private static String reason(SSLException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof SSLHandshakeException && message.contains("PKIX")) {
            return "certificate not trusted (" + message + ")";
        }
        return message;
    }

    /** Whether the socket is open; closing is the connection's, not the session's. */
    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    /** Does not close the socket: the connection goes on in clear after {@link #closeAsClient}/{@link #closeAsServer}. */
    @Override
    public void close() {
    }
}
