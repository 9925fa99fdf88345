package io.xferbench.core.net;

import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Trailer;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.tls.TlsBuffers;
import io.xferbench.core.tls.TlsChannel;
import io.xferbench.core.tls.TlsEndpoint;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A client connection to an xferbench server; requests run one after another on it. Not thread-safe. */
public final class XferConnection implements AutoCloseable {
    /**
     * How long an answer may take unless told otherwise ({@link #answerTimeout(Duration)} says which waits get more): a
     * server that accepted and never answers (a stuck proxy's upstream) must not hang a client for good.
     */
    public static final Duration DEFAULT_ANSWER_TIMEOUT = Duration.ofSeconds(60);
    /** MEASURE_BEGIN and MEASURE_END get this on top: the server may take up to a minute to start or stop perf. */
    static final Duration PERF_ALLOWANCE = Duration.ofSeconds(60);
    /** The slowest a server is expected to generate, read cold or fsync a file: the server's default --min-rate. */
    static final long MIN_PREPARATION_BYTES_PER_SECOND = 1 << 20;
    /** A named file's cache work before its header: its size is unknown here, so in effect unbounded. */
    static final Duration UNKNOWN_SIZE_PREPARATION = Duration.ofDays(1);

    private final SocketChannel channel;
    private final String token;
    private final String host;
    private final int port;
    private final String peer;
    /** The client's TLS end for downloads flagged {@link Flags#TLS}; null until {@link #tls} gives one. */
    private TlsEndpoint tls;
    private TlsBuffers tlsBuffers;
    private Duration answerTimeout = DEFAULT_ANSWER_TIMEOUT;
    private final BodyReceiver receiver = new BodyReceiver();
    private final AtomicLong sent = new AtomicLong();

    private XferConnection(SocketChannel channel, String token, String host, int port) {
        this.channel = channel;
        this.token = token == null ? "" : token;
        this.host = host;
        this.port = port;
        this.peer = host + ":" + port;
    }

    /**
     * Lets this connection download with TLS methods: a request flagged {@link Flags#TLS} opens a TLS session with
     * {@code client} after the head (its certificate must name the host connected to), reads the body through it and
     * closes it, and the connection goes on in clear (docs/tls.md).
     */
    public XferConnection tls(TlsEndpoint client) {
        this.tls = client;
        return this;
    }

    /**
     * Sets how long answers may take: INFO, STAT, DELETE, PROXY and an UPLOAD's ready this long, MEASURE_*
     * {@link #PERF_ALLOWANCE} more; a DOWNLOAD's header, a PREPARE of a generated file and an UPLOAD's result this
     * long plus one second per MiB (generating, reading cold or fsyncing a large file takes minutes); a body's bytes
     * may stop flowing for this long. Past it the connection is closed and the call fails with
     * {@link NoAnswerException}. A PREPARE of a named file, and a named file's header after cache flags, are not bounded
     * (its size is not known here).
     */
    public XferConnection answerTimeout(Duration timeout) {
        if (timeout == null || !timeout.isPositive()) {
            throw new IllegalArgumentException("answer timeout must be positive, not " + timeout);
        }
        this.answerTimeout = timeout;
        return this;
    }

    /** {@link #open(String, int, String, Duration)} with {@link #DEFAULT_ANSWER_TIMEOUT}. */
    public static XferConnection open(String host, int port, String token) throws IOException {
        return open(host, port, token, DEFAULT_ANSWER_TIMEOUT);
    }

    /**
     * Connects, waiting at most {@code answerTimeout} for the server to accept, and bounds the connection's answers by it
     * ({@link #answerTimeout(Duration)}). A black-holed host, or a listener whose accept queue is full, otherwise holds
     * the connect for the kernel's SYN retries (about two minutes).
     *
     * @throws ConnectException {@code H:P did not accept within 60s} when the connect timed out
     */
    public static XferConnection open(String host, int port, String token, Duration answerTimeout) throws IOException {
        if (answerTimeout == null || !answerTimeout.isPositive()) {
            throw new IllegalArgumentException("answer timeout must be positive, not " + answerTimeout);
        }
        SocketChannel ch = SocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            InetSocketAddress address = new InetSocketAddress(host, port);
            if (address.isUnresolved()) {
                throw new java.net.UnknownHostException(host);
            }
            // A plain blocking connect, ended by closing the channel when late (AnswerDeadline): the socket adaptor's
            // timed connect toggles O_NONBLOCK around it, six fcntl and a poll more per connection (the proxy's connect
            // scenario measures connections).
            try {
                AnswerDeadline.await(ch, host + ":" + port, answerTimeout, () -> ch.connect(address));
                if (!ch.isOpen()) {
                    throw new NoAnswerException("closed by the deadline as the connect returned");
                }
            } catch (NoAnswerException e) {
                throw new ConnectException(host + ":" + port + " did not accept within " + NoAnswerException.format(answerTimeout));
            }
            return new XferConnection(ch, token, host, port).answerTimeout(answerTimeout);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Takes the receive buffer now, outside any timing, for a connection about to receive bodies with no
     * {@link #prepare} first (a PREPARE takes it): otherwise its first body pays for it.
     */
    public XferConnection reserveReceiveBuffer() {
        receiver.reserve();
        return this;
    }

    /**
     * Body bytes moved on this connection so far, downloaded and uploaded, counted as they go: another thread may read
     * it while a transfer runs (the client's live progress line).
     */
    public long bodyBytes() {
        return receiver.received() + sent.get();
    }

    public SocketChannel channel() {
        return channel;
    }

    /**
     * This end's address as the far side names its peer in a measurement window's overlap
     * ({@link WindowOverlap#address}), so a client can tell its own connections from other clients'.
     */
    public String localAddress() throws IOException {
        return WindowOverlap.address(channel.getLocalAddress());
    }

    /**
     * Downloads and verifies; a server-side failure surfaces as {@link io.xferbench.core.protocol.RemoteException}. A
     * generated file (a request by size, no name) is checked against the size asked for and the generator's CRC32C, a
     * named one against what the server announces; either way the announcement must be the body's ({@link Crc32cCheck}).
     */
    public DownloadResult download(Request request) throws IOException {
        boolean checksum = request.has(Flags.VERIFY_CRC32C);
        boolean generated = request.name().isEmpty();
        boolean overTls = request.has(Flags.TLS);
        if (overTls && tls == null) {
            throw new IllegalStateException(request.method() + " is a TLS method: the connection needs the server's certificate to trust (tls)");
        }
        // Once per size and JVM; the commands compute it before any timed round (DownloadCommand, ProxyCommand).
        int truth = generated && checksum ? GeneratedChecksums.of(request.size()) : 0;
        DownloadHeader header;
        int crc;
        long clientNanos;
        Trailer trailer;
        // The header may wait for a generation or a cold read (minutes for a large file), the body only for its bytes.
        try (AnswerDeadline deadline = AnswerDeadline.start(channel, peer, headerTimeout(request), answerTimeout,
                receiver::received)) {
            try {
                long start = System.nanoTime();
                send(request);
                header = ResponseCodec.readDownloadHeader(channel);
                crc = overTls ? receiveOverTls(header.length(), checksum) : receiver.receive(channel, header.length(), checksum);
                clientNanos = System.nanoTime() - start;
                trailer = ResponseCodec.readTrailer(channel);
            } catch (IOException | RuntimeException e) {
                deadline.throwIfExpired();
                throw e;
            }
        }
        return new DownloadResult(header.length(), generated ? request.size() : header.length(), checksum,
                generated ? truth : header.crc32c(), header.crc32c(), crc, clientNanos, trailer.serverNanos(),
                header.residencyPermille(), trailer.residencyPermille());
    }

    /** The body of a TLS download: the handshake after the head, the body through the session, the client's close first. */
    private int receiveOverTls(long length, boolean checksum) throws IOException {
        if (tlsBuffers == null) {
            tlsBuffers = new TlsBuffers();
        }
        TlsChannel session = TlsChannel.connect(channel, tls, tlsBuffers, host, port);
        int crc = receiver.receive(session, length, checksum);
        session.closeAsClient();
        return crc;
    }

    /**
     * PREPAREs the file {@code download} would send (same name, size and cache flags): untimed, before a timed
     * {@link #download} of {@code download.withoutCacheFlags()}.
     */
    public Prepared prepare(Request download) throws IOException {
        if (download.size() > 0 || !download.name().isEmpty()) {
            receiver.reserve(); // here, untimed, rather than inside the download's clock
        }
        send(Request.prepare(download));
        if (!download.name().isEmpty()) {
            return ResponseCodec.readPrepared(channel); // a named file's size is unknown here: no bound to scale
        }
        return AnswerDeadline.await(channel, peer, preparationTimeout(download.size()), () -> ResponseCodec.readPrepared(channel));
    }

    /** Whether {@code name} exists in the server's data directory, and its size and mtime. */
    public FileStat stat(String name) throws IOException {
        send(Request.onFile(Op.STAT, name));
        return AnswerDeadline.await(channel, peer, answerTimeout, () -> ResponseCodec.readStat(channel));
    }

    /** Removes {@code name} from the server's data directory; NOT_FOUND (a {@link RemoteException}) when absent. */
    public void delete(String name) throws IOException {
        send(Request.onFile(Op.DELETE, name));
        AnswerDeadline.await(channel, peer, answerTimeout, () -> {
            ResponseCodec.readDeleted(channel);
            return null;
        });
    }

    /**
     * Uploads {@code body} (a local file, typically {@code DataDirectory.generated(size)} of the client's own data
     * directory, whose CRC32C is already known) with the method, name, flags and buffer size of {@code request};
     * its size and crc32c are taken from {@code body}. The body goes out with {@code FileChannel.transferTo}
     * (sendfile(2) from the page cache), the cheapest sender the client has, so the server's method is what is
     * measured.
     *
     * @throws RemoteException when the server refuses before the body (nothing was sent) or fails after it (the
     *                         file was not put in place); after a failure in the body the server closes the connection
     */
    public UploadResult upload(Request request, TestFile body) throws IOException {
        Request r = Request.upload(request.method(), request.name(), body.size(), body.crc32c(), request.flags(), request.bufferSize());
        long start = System.nanoTime();
        send(r);
        long promised = AnswerDeadline.await(channel, peer, answerTimeout, () -> ResponseCodec.readUploadReady(channel));
        if (promised != body.size()) {
            throw new IOException("server is ready for " + promised + " bytes, the body has " + body.size());
        }
        try (FileChannel file = FileChannel.open(body.path(), StandardOpenOption.READ);
             AnswerDeadline deadline = AnswerDeadline.start(channel, peer, answerTimeout, answerTimeout, sent::get)) {
            try {
                sendBody(file, body.size());
            } catch (IOException | RuntimeException e) {
                deadline.throwIfExpired();
                throw e;
            }
        } catch (NoAnswerException e) {
            throw e;
        } catch (IOException e) {
            // The server may have given up in the middle and said why before closing: prefer its reason.
            try {
                ResponseCodec.readUploadResult(channel);
            } catch (RemoteException remote) {
                remote.addSuppressed(e);
                throw remote;
            } catch (IOException | RuntimeException ignored) {
                // Nothing readable: the write failure is all there is.
            }
            throw e;
        }
        // The server verifies, may fsync, and renames before it answers: as long as a preparation of the body's size.
        UploadReport report = AnswerDeadline.await(channel, peer, preparationTimeout(body.size()),
                () -> ResponseCodec.readUploadResult(channel));
        long clientNanos = System.nanoTime() - start;
        return new UploadResult(report.bytes(), body.size(), body.crc32c(), report.crc32c(), report.checksumReread(),
                clientNanos, report.serverNanos(), report.verifyNanos(), report.fsyncNanos());
    }

    private void sendBody(FileChannel file, long length) throws IOException {
        long pos = 0;
        int zeros = 0;
        while (pos < length) {
            long n = file.transferTo(pos, length - pos, channel);
            if (n > 0) {
                pos += n;
                sent.addAndGet(n);
                zeros = 0;
            } else if (++zeros > 16) {
                throw new EOFException("upload body file ended at " + pos + " of " + length + " bytes (truncated?)");
            }
        }
    }

    /**
     * Sends the PROXY frame that must open a connection to a proxy: relay with {@code relay} (empty: the proxy's
     * default) and {@code bufferSize} (0: default). Returns the relay id in effect; from here on, requests on this
     * connection go to the upstream server.
     */
    public String proxy(String relay, int bufferSize) throws IOException {
        send(Request.proxy(relay, bufferSize));
        return AnswerDeadline.await(channel, peer, answerTimeout, () -> ResponseCodec.readProxyReady(channel));
    }

    /**
     * INFO, MEASURE_BEGIN, MEASURE_END answered by a proxy about itself ({@link Request#PROXY_SELF}): send them on a
     * connection that has not sent a PROXY frame; it stays with the proxy and may carry more of them. Check INFO's
     * {@code "server"} is {@code "xferbench-proxy"} first: a plain server answers these frames about itself.
     */
    public byte[] proxySelf(Op op) throws IOException {
        send(Request.proxySelf(op));
        return AnswerDeadline.await(channel, peer, controlTimeout(op), () -> ResponseCodec.readJson(channel));
    }

    /** INFO, MEASURE_BEGIN, MEASURE_END: a JSON answer. */
    public byte[] control(Op op) throws IOException {
        return control(op, 0);
    }

    /** The same with request flags (MEASURE_BEGIN's {@code NO_SYSCALL_COUNT}). */
    public byte[] control(Op op, int flags) throws IOException {
        send(Request.control(op, flags));
        return AnswerDeadline.await(channel, peer, controlTimeout(op), () -> ResponseCodec.readJson(channel));
    }

    /**
     * How long an answer that first works through {@code bytes} of a file (generating it, reading it cold, fsyncing an
     * upload) may take: the answer timeout and 1 MiB/s, as the server's own transfer deadline (its --min-rate).
     */
    private Duration preparationTimeout(long bytes) {
        return answerTimeout.plusSeconds(Math.max(0, bytes) / MIN_PREPARATION_BYTES_PER_SECOND);
    }

    /**
     * A generated file's header may wait for its generation; a named file's for the cache work its flags ask (warming
     * reads the whole file), whose size is unknown here: a day, in effect no bound, as for its PREPARE.
     */
    private Duration headerTimeout(Request download) {
        if (download.name().isEmpty()) {
            return preparationTimeout(download.size());
        }
        return (download.flags() & (Flags.CACHE_COLD | Flags.CACHE_WARM)) != 0 ? UNKNOWN_SIZE_PREPARATION : answerTimeout;
    }

    private Duration controlTimeout(Op op) {
        return op == Op.MEASURE_BEGIN || op == Op.MEASURE_END ? answerTimeout.plus(PERF_ALLOWANCE) : answerTimeout;
    }

    private void send(Request request) throws IOException {
        Frames.writeFully(channel, RequestCodec.encode(request.withToken(token)));
    }

    /** Closes the channel and gives the receive buffer, if a body ever needed one, back for the next connection. */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            receiver.release();
        }
    }
}
