package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.uring.UringEntryOps;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.TcpInfo;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.BodyCutShort;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.fault.ServerFault;
import io.xferbench.server.http.HttpHeadMethod;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.http.ProtocolSniffer;
import io.xferbench.server.limits.BusyAnswer;
import io.xferbench.server.limits.BusyRefusals;
import io.xferbench.server.limits.LingeringClose;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.InfoAnswer;
import io.xferbench.server.model.ServerListener;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.HttpRequest;
import io.xferbench.server.request.RequestRules;
import io.xferbench.server.request.RequestService;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One connection of an event-loop model ({@link EventLoopServer}), run on its event loop: the channel's life, its
 * receive buffer, its states and deadlines, and where its file work runs. It serves one request at a time (what
 * arrives meanwhile waits in the buffer); the first bytes tell the native protocol from HTTP/1.1 as {@link Connection}
 * does, and the requests are {@link EventLoopNative}'s or {@link EventLoopHttp}'s. Same checks and answers as the
 * threaded models.
 *
 * <p>Everything that touches the filesystem (open and checksum, stat, unlink, an upload's temp file, writes,
 * verification and rename, cache steps, INFO's environment probe, a measurement window's perf set-up) runs on the file
 * pool; the loop only moves bytes: frames, a download's body when the method asked is the loop's own ({@link EventLoopBody};
 * a blocking method's body goes from the pool), and an upload's body from the socket into chunks the pool writes. The open-on-loop models are the
 * exception: a download's, HEAD's and STAT's open, fstat and checksum-record lookup run on the loop, as nginx opens
 * files on its loop; a file with no record and a generated file still to write go to the pool
 * ({@link #quickOrOnFiles}). So is {@code netty-io-uring}, whose loop submits those opens and stats to its ring
 * ({@link #openForDownload}, {@link #statFile}).
 */
public final class EventLoopConnection extends ChannelInboundHandlerAdapter implements EventLoopFileWork.Loop {
    private static final Logger LOG = Logger.getLogger(EventLoopConnection.class.getName());

    /** The user event that starts shutdown: close now if idle, else after the request in flight. */
    public static final Object STOP = new Object();

    private static final int MAX_PENDING = 256 * 1024;
    /** How often a connection whose reading is paused is checked for a reset ({@link #watchForReset}). */
    private static final long RESET_CHECK_MILLIS = 200;

    private final String model;
    private final ServerConfig config;
    private final DataDirectory data;
    private final Measurements measurements;
    private final EventLoopFileWork fileWork;
    private final EventLoopConnections connections;
    private final int id;
    /** Open-on-loop models: a download's, HEAD's or STAT's metadata work runs here on the loop (see {@link #quickOrOnFiles}). */
    private final boolean openOnLoop;
    /** This loop's ring lookups where lookups run on the ring ({@link LookupPlacement#RING}); null otherwise. */
    private final UringEntryOps ring;
    /** How a download's head and body leave, by the method asked ({@link EventLoopBody}). */
    private final EventLoopBody body;
    /** TCP_CORK of this transport, or null when answers are not corked. */
    private final ChannelOption<Boolean> cork;

    private ChannelHandlerContext ctx;
    private String peer = "unknown";
    /** Received bytes not yet decoded into a request (or, during an upload, not yet handed to the pool). */
    private ByteBuf pending;
    private boolean admitted;
    private boolean refused;
    private boolean sniffed;
    /** The connection's HTTP/1.1 side, once the first bytes said it speaks HTTP; null for the native protocol. */
    private EventLoopHttp http;
    private boolean inFlight;
    /** Auto-read is on (see {@link #paceReading}). */
    private boolean reading = true;
    /** Whether this transport needs {@link #watchForReset} (one timer task and getsockopt every 200 ms). */
    private final boolean watchResets;
    /** A check for a reset is scheduled ({@link #watchForReset}). */
    private boolean watchingForReset;
    /** The request in flight is a transfer other measurement windows are told of. */
    private boolean transferring;
    /** An answer that ends the connection was sent: what arrives now is drained, then the connection closes. */
    private boolean ending;
    private long drained;
    private boolean stopping;
    /** The client shut its side down (FIN): what it sent before is still answered, then the connection closes. */
    private boolean inputEnded;
    private EventLoopDeadline deadline;
    /** The request being served (a native Request or an HttpRequest; null between requests), named only in a failure's log. */
    private Object current;
    /** The request in flight is an HTTP HEAD: an error answer to it has no body. */
    private boolean headRequest;
    /** Part of the request's answer may be out (a download's head): no error answer may follow it. */
    private boolean answerStarted;
    /** The connection's native-protocol side (also what a closing connection cleans up for). */
    private final EventLoopNative nativeSide;
    /** What every request of this connection is answered with ({@link RequestService}), and its failures. */
    private final RequestService service;
    private final FailureAnswers failures;
    private final InfoAnswer info;

    public EventLoopConnection(String model, ServerListener.Parts parts, Executor files, FileWorkBatches batches,
            EventLoopConnections connections, LookupPlacement lookups, UringEntryOps ring, EventLoopTransport transport) {
        if ((lookups == LookupPlacement.RING) != (ring != null)) {
            throw new IllegalArgumentException(lookups + " with" + (ring == null ? "out" : "") + " ring lookups");
        }
        this.model = model;
        this.openOnLoop = lookups == LookupPlacement.LOOP;
        this.ring = ring;
        this.config = parts.config();
        this.cork = config.corkResponses() ? transport.cork : null;
        this.watchResets = !transport.reportsResets();
        this.body = new EventLoopBody(this, transport, cork != null, parts.buffers());
        this.data = parts.data();
        this.measurements = parts.measurements();
        this.info = parts.info();
        this.fileWork = new EventLoopFileWork(this, files, batches, ring, data, openOnLoop);
        this.connections = connections;
        this.id = connections.nextId();
        this.service = new RequestService(new RequestRules(config.token(), config.maxGenerated(), config.maxUpload(), model, false));
        this.failures = new FailureAnswers(data.root());
        this.nativeSide = new EventLoopNative(this, service, new io.xferbench.server.request.FileWork(data, service), failures);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        deadline = new EventLoopDeadline(context, model);
        pending = context.alloc().heapBuffer(256);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        admitted = connections.admit(context.channel());
        if (connections.stopping()) {
            context.close();
            return;
        }
        peer = WindowOverlap.address(context.channel().remoteAddress());
        body.prepare();
        // Over the limit: answered BUSY on the first read, so the request is consumed and the close sends FIN, not
        // a RST that could destroy the answer before the client reads it.
        refused = !admitted;
        if (refused) {
            // As BusyRefusals does: a refused client has WAIT_MILLIS to send the bytes that tell its protocol, then it
            // hears BUSY as far as what it sent tells (a quiet one would otherwise hold a descriptor to the idle timeout).
            context.executor().schedule(() -> {
                if (!ending && context.channel().isActive()) {
                    refuseBusy();
                }
            }, BusyRefusals.WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        arm(config.idleTimeout(), "idle/header timeout");
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        deadline.cancel();
        transferDone();
        nativeSide.closed();
        body.closed();
        connections.closed(context.channel(), admitted);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        // Here, not in channelInactive: a channel that never became active still had its buffer allocated.
        pending.release();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (ending) {
                drained += in.readableBytes();
                if (drained > LingeringClose.MAX_BYTES) {
                    context.close();
                }
                return;
            }
            pending.writeBytes(in);
            if (refused) {
                // In the client's own protocol, once its first bytes tell which (and whether HTTP asks HEAD).
                if (pending.readableBytes() >= BusyAnswer.FIRST_BYTES) {
                    refuseBusy();
                }
                return;
            }
        } finally {
            in.release();
        }
        paceReading();
        if (http == null && nativeSide.receivingBody()) {
            nativeSide.feedBody();
        } else {
            decodeNext();
        }
    }

    /**
     * While reading is paused ({@link #paceReading}) or an upload's body arrives, asks the socket every
     * {@link #RESET_CHECK_MILLIS} whether the client reset it, and closes it if so. On io_uring nothing else told: a
     * reset while reads were paused for the pool's write was not reported by Netty 4.2.18, neither then (with reads
     * paused it either has no read in flight, or drains the last bytes on POLLRDHUP and stops once the socket is empty,
     * before the read that would fail with ECONNRESET) nor after reading resumed; the upload's temp file, descriptors
     * and connection slot were held to its transfer deadline. Epoll reports the reset itself ({@link #exceptionCaught}),
     * so its connections do not look. One getsockopt per check.
     */
    void watchForReset() {
        if (watchingForReset || !watchResets) {
            return;
        }
        watchingForReset = true;
        ctx.executor().schedule(() -> {
            watchingForReset = false;
            if ((reading && !nativeSide.receivingBody()) || !ctx.channel().isActive()) {
                return;
            }
            if (resetByPeer(ctx)) {
                nativeSide.peerLeft("connection reset by peer");
                ctx.close();
                return;
            }
            watchForReset();
        }, RESET_CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static boolean resetByPeer(ChannelHandlerContext context) {
        if (!NativeSupport.available() || !(context.channel() instanceof UnixChannel unix)) {
            return false;
        }
        try {
            return TcpInfo.closed(unix.fd().intValue());
        } catch (NativeException e) {
            return false;
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
        if (event == STOP) {
            stopping = true;
            if (!inFlight) {
                context.close();
            }
            return;
        }
        if (event instanceof ChannelInputShutdownEvent) {
            inputEnded = true;
            if (refused && !ending) {
                refuseBusy(); // answered as far as its few bytes tell (under four: the native BUSY)
            } else if (ending) {
                context.close(); // the lingering close's drain is over
            } else if (http == null && nativeSide.receivingBody()) {
                nativeSide.feedBody(); // ends the connection if the body can no longer be whole
            } else {
                decodeNext();
                closeIfInputDone();
            }
            return;
        }
        super.userEventTriggered(context, event);
    }

    /** Over --max-connections: BUSY, as an HTTP 503 to a client whose first bytes are HTTP's ({@link BusyAnswer}). */
    private void refuseBusy() {
        String why = "server busy: " + connections.maxConnections() + " connections already open (--max-connections)";
        endWith(BusyAnswer.to(pending.nioBuffer(), why));
    }

    /** Whether the client shut its side down. */
    boolean inputEnded() {
        return inputEnded;
    }

    /**
     * After the client's FIN, once nothing is in flight: closes, answering first a request the FIN cut short (as the
     * thread models answer a truncated one).
     */
    private void closeIfInputDone() {
        if (!inputEnded || inFlight || ending) {
            return;
        }
        if (!pending.isReadable()) {
            ctx.close();
        } else if (http != null) {
            boolean headMethod = HttpHeadMethod.isHead(pending.nioBuffer());
            endWith(HttpResponses.error(400, "connection closed inside a request head", false, headMethod, ""));
        } else {
            endWith(ResponseCodec.error(Status.BAD_REQUEST, "truncated request header (the client shut its side down)"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        Throwable fault = ServerFault.of(cause);
        if (fault == null) {
            // The socket's own failure (a reset, a broken pipe): the client left, nothing of ours to report.
            LOG.fine(() -> model + " conn " + context.channel().remoteAddress() + ": closed: " + cause);
            nativeSide.peerLeft(cause);
            context.close();
            return;
        }
        // Anything else thrown while serving on the loop (an Error included) is the server's: it was closed at FINE.
        internalError(fault, cause);
    }

    /**
     * A request failed for a reason of the server's own (a RuntimeException, an Error): logged with the model, the
     * client and the request ({@link InternalErrors}); answered SERVER_ERROR, or 500 on HTTP, while nothing of its
     * answer is out, then the connection ends as after a bad request (FIN, a bounded drain); else it is closed.
     */
    @Override
    public void internalError(Throwable e) {
        internalError(e, e);
    }

    /** As {@link #internalError(Throwable)} for a {@code fault} found wrapped in {@code thrown} ({@link ServerFault}). */
    private void internalError(Throwable e, Throwable thrown) {
        try {
            InternalErrors.report(model, peer, current, e, thrown);
            if (ending || answerStarted || !ctx.channel().isActive()) {
                ctx.close();
                return;
            }
            String reason = InternalErrors.clientReason(e, data.root());
            endWith(http != null ? HttpResponses.error(500, reason, false, headRequest, "")
                    : ResponseCodec.error(Status.SERVER_ERROR, reason));
        } catch (RuntimeException | Error again) {
            // Answering failed too (out of memory, say): the close is what is left.
            ctx.close();
        }
    }

    /**
     * A body's write failed past the answer's head: the connection closes. The write's future carries a failure of
     * Netty's or ours (a RuntimeException, an Error, often wrapped) as it carries a socket's, so it is told apart here
     * ({@link ServerFault}) and reported as an internal error, with its stack trace.
     */
    void bodyFailed(Throwable cause, String sentAs) {
        Throwable fault = ServerFault.of(cause);
        if (fault != null) {
            internalError(fault, cause);
            return;
        }
        BodyCutShort.log(model, peer, current, sentAs, cause);
        ctx.close();
    }

    /** {@code then} run on the loop, an unexpected failure in it answered by {@link #internalError}. */
    <T> Consumer<T> guarded(Consumer<T> then) {
        return fileWork.guarded(then);
    }

    /** A request is being served from now on: how the log names it, and whether an HTTP error answer has a body. */
    void serving(Object request, boolean head) {
        current = request;
        headRequest = head;
        answerStarted = false;
    }

    /** Decodes and serves the next request if a whole one has arrived and none is in flight. */
    private void decodeNext() {
        try {
            decodeAndServe();
        } catch (RuntimeException | Error e) {
            // Called from write listeners too, where Netty would log and swallow it and leave the connection hanging.
            internalError(e);
        }
    }

    private void decodeAndServe() {
        if (inFlight || ending || !ctx.channel().isActive()) {
            return;
        }
        if (!sniffed) {
            if (pending.readableBytes() < ProtocolSniffer.SNIFF_BYTES) {
                return;
            }
            sniffed = true;
            if (ProtocolSniffer.isHttp(pending.nioBuffer(pending.readerIndex(), ProtocolSniffer.SNIFF_BYTES))) {
                http = new EventLoopHttp(this, service, failures);
            }
        }
        if (http != null) {
            http.decodeNext();
            return;
        }
        nativeSide.decodeNext();
    }

    // ---- what the protocol sides (this class's native serving and EventLoopHttp) share

    String model() {
        return model;
    }

    InfoAnswer info() {
        return info;
    }

    ServerConfig config() {
        return config;
    }

    DataDirectory data() {
        return data;
    }

    Measurements measurements() {
        return measurements;
    }

    /** The connection's id in measurement windows. */
    int id() {
        return id;
    }

    @Override
    public ChannelHandlerContext ctx() {
        return ctx;
    }

    /** Received bytes not yet decoded. */
    ByteBuf pending() {
        return pending;
    }

    /** A request is in flight from now on, closed if it is not done within {@code budget}. */
    void begin(Duration budget) {
        inFlight = true;
        arm(budget, "transfer deadline");
    }

    /**
     * Reading stays on between requests and during one (what arrives waits in {@link #pending}); it pauses only while
     * more than {@link #MAX_PENDING} bytes wait, which bounds a pipelining client and paces an upload's body to the
     * pool's writes. Toggling it per request would cost two epoll_ctl calls per request.
     */
    void paceReading() {
        if (inputEnded) {
            // Nothing is left to read, and resuming would fail: after the FIN, Netty's epoll transport has taken the
            // socket out of epoll, so a resumed read's epoll_ctl gets ENOENT and closes the connection unanswered.
            return;
        }
        boolean read = pending.readableBytes() < MAX_PENDING || ending;
        if (read != reading) {
            reading = read;
            ctx.channel().config().setAutoRead(read);
            if (!read) {
                watchForReset();
            }
        }
    }

    /** A request's file work, on the file pool. */
    @FunctionalInterface
    public interface FileWork<T> {
        T run() throws IOException;
    }

    /** Where this connection's file work runs ({@link EventLoopFileWork}). */
    EventLoopFileWork fileWork() {
        return fileWork;
    }

    /** The connection's transfer starts: measurement windows of other connections hear of it. */
    void transferStarts() {
        transferring = true;
        measurements.started(id, peer);
    }

    void transferDone() {
        if (transferring) {
            transferring = false;
            measurements.finished(id);
        }
    }

    /**
     * Corks the connection while a download's answer is written ({@code --cork-responses}; {@link ResponseCork} for the
     * thread models): set before its first part, cleared once its last part's write completed, which sends what was held.
     */
    void cork(boolean on) {
        if (cork != null) {
            try {
                ctx.channel().config().setOption(cork, on);
            } catch (ChannelException e) {
                // The socket is gone (the peer left): nothing is left to send.
                LOG.fine(() -> model + " conn: TCP_CORK not changed: " + e);
            }
        }
    }

    /** How a download's head and body leave this connection, by the method asked. */
    EventLoopBody body() {
        return body;
    }

    /** Part of the request's answer may be out from now: no error answer may follow it. */
    void answerStarts() {
        answerStarted = true;
    }

    // ---- answers and the connection's states

    /** The request's answer is written (or failed to be): back to waiting for the next one. */
    void written(boolean ok) {
        inFlight = false;
        serving(null, false);
        transferDone();
        if (!ok || stopping) {
            ctx.close();
            return;
        }
        arm(Measurements.requestWait(config.idleTimeout(), nativeSide.holdsWindow()), "idle/header timeout");
        decodeNext();
        closeIfInputDone();
        paceReading();
    }

    /**
     * Sends a last answer (if any), then FIN, and drains what the client still sends (bounded in bytes and time) before
     * the close: closing with unread input would send RST, which can destroy the answer before the client reads it.
     */
    void endWith(ByteBuffer answer) {
        ending = true;
        inFlight = true;
        pending.clear();
        arm(LingeringClose.LINGER, "linger after the last answer");
        paceReading();
        ctx.writeAndFlush(answer == null ? Unpooled.EMPTY_BUFFER : frame(answer)).addListener(f -> {
            if (f.isSuccess() && !inputEnded && ctx.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                ctx.close();
            }
        });
    }

    /** Closes the connection if it is still in the same state after {@code budget}. */
    void arm(Duration budget, String what) {
        deadline.arm(budget, what);
    }

    /**
     * A body of {@code bytes} moves from now: it must be through within idle timeout + bytes / --min-rate, and the
     * connection closes as soon as no byte moved for the idle timeout ({@link EventLoopDeadline#watchBody}).
     */
    void bodyMoves(long bytes) {
        arm(config.transferBudget(bytes), "transfer deadline");
        deadline.watchBody(config.idleTimeout());
    }

    /** The body is through: what follows (a trailer, the pool's last write and rename) moves nothing on the socket. */
    void bodyMoved() {
        deadline.bodyMoved();
    }

    static ByteBuf frame(ByteBuffer frame) {
        return Unpooled.wrappedBuffer(frame);
    }

    public static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // Closed already (a file region closes its file too), or nothing left to do about it.
        }
    }
}
