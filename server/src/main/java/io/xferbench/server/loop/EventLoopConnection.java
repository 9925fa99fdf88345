package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.uring.UringEntryOps;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.http.HttpHeadMethod;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.http.ProtocolSniffer;
import io.xferbench.server.limits.BusyAnswer;
import io.xferbench.server.limits.BusyRefusals;
import io.xferbench.server.limits.LingeringClose;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.Seams;
import io.xferbench.server.model.ServerListener;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.RequestRules;
import io.xferbench.server.request.RequestService;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One connection of an event-loop model ({@link EventLoopServer}), run on its event loop: the channel's life and
 * states (reading, paused, in flight, ending, stopping), its receive buffer, and what its protocol executors are given
 * of it ({@link EventLoopExchange}). The parts with a job of their own: its deadlines ({@link EventLoopDeadline}), the
 * watch for a reset ({@link EventLoopResetWatch}), the request served now ({@link EventLoopServing}), how answers
 * leave ({@link EventLoopAnswerWriter}), how a failure ends it ({@link EventLoopFaults}) and where its file work runs
 * ({@link EventLoopFileWork}). It serves one request at a time (what arrives meanwhile waits in the buffer); the first
 * bytes tell the native protocol from HTTP/1.1 as {@link io.xferbench.server.thread.Connection} does, and the requests
 * are {@link EventLoopNative}'s or {@link EventLoopHttp}'s. Same checks and answers as the threaded models.
 *
 * <p>Everything that touches the filesystem (open and checksum, stat, unlink, an upload's temp file, writes,
 * verification and rename, cache steps, INFO's environment probe, a measurement window's perf set-up) runs on the file
 * pool; the loop only moves bytes: frames, a download's body when the method asked is the loop's own ({@link EventLoopBody};
 * a blocking method's body goes from the pool), and an upload's body from the socket into chunks the pool writes. The open-on-loop models are the
 * exception: a download's, HEAD's and STAT's open, fstat and checksum-record lookup run on the loop, as nginx opens
 * files on its loop; a file with no record and a generated file still to write go to the pool
 * ({@link EventLoopFileWork#quickOrOnFiles}). So is {@code netty-io-uring}, whose loop submits those opens and stats to its ring
 * ({@link EventLoopFileWork#openForDownload}, {@link EventLoopFileWork#statFile}).
 */
final class EventLoopConnection extends ChannelInboundHandlerAdapter implements EventLoopExchange {
    /** The user event that starts shutdown: close now if idle, else after the request in flight. */
    public static final Object STOP = new Object();

    private static final int MAX_PENDING = 256 * 1024;

    private final EventLoopSetting setting;
    private final ServerConfig config;
    private final EventLoopFileWork fileWork;
    private final EventLoopConnections connections;
    /** How a download's head and body leave, by the method asked ({@link EventLoopBody}). */
    private final EventLoopBody body;
    private final EventLoopAnswerWriter writer;
    private final EventLoopServing serving;
    /** Whether this transport needs {@link EventLoopResetWatch}. */
    private final boolean watchResets;

    private ChannelHandlerContext ctx;
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
    /** An answer that ends the connection was sent: what arrives now is drained, then the connection closes. */
    private boolean ending;
    private long drained;
    private boolean stopping;
    /** The client shut its side down (FIN): what it sent before is still answered, then the connection closes. */
    private boolean inputEnded;
    private EventLoopDeadline deadline;
    private EventLoopResetWatch resetWatch;
    private final EventLoopFaults faults;
    /** The connection's native-protocol side (also what a closing connection cleans up for). */
    private final EventLoopNative nativeSide;
    /** What every request of this connection is answered with ({@link RequestService}), and its failures. */
    private final RequestService service;
    private final FailureAnswers failures;
    /** What requests are decoded and served through. */
    private final Seams seams;

    public EventLoopConnection(String model, ServerListener.Parts parts, Executor files, FileWorkBatches batches,
            EventLoopConnections connections, LookupPlacement lookups, UringEntryOps ring, EventLoopTransport transport) {
        if ((lookups == LookupPlacement.RING) != (ring != null)) {
            throw new IllegalArgumentException(lookups + " with" + (ring == null ? "out" : "") + " ring lookups");
        }
        boolean openOnLoop = lookups == LookupPlacement.LOOP;
        this.config = parts.config();
        this.connections = connections;
        this.setting = new EventLoopSetting(model, config, parts.data(), parts.measurements(), parts.info(), connections.nextId());
        this.writer = new EventLoopAnswerWriter(model, config.corkResponses() ? transport.cork : null, this::written);
        this.serving = new EventLoopServing(setting.measurements(), setting.id());
        this.watchResets = !transport.reportsResets();
        this.body = new EventLoopBody(this, transport, writer.corked(), parts.buffers());
        this.seams = parts.seams();
        this.fileWork = new EventLoopFileWork(this, files, batches, ring, setting.data(), seams.files(), openOnLoop);
        this.service = new RequestService(new RequestRules(config.token(), config.maxGenerated(), config.maxUpload(), model, false,
                config.tls()), seams.senders());
        this.failures = new FailureAnswers(setting.data().root());
        this.nativeSide = new EventLoopNative(this, service, new io.xferbench.server.request.FileWork(setting.data(), seams.files(), service),
                failures, seams);
        this.faults = new EventLoopFaults(setting, serving, () -> ending, () -> http != null, nativeSide::peerLeft, this::endWith);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        writer.attach(context);
        faults.attach(context);
        deadline = new EventLoopDeadline(context, setting.model());
        resetWatch = new EventLoopResetWatch(context, watchResets, () -> !reading || nativeSide.receivingBody(), nativeSide::peerLeft);
        pending = context.alloc().heapBuffer(256);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        admitted = connections.admit(context.channel());
        if (connections.stopping()) {
            context.close();
            return;
        }
        serving.peer(WindowOverlap.address(context.channel().remoteAddress()));
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
        serving.transferDone();
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

    @Override
    public void watchForReset() {
        resetWatch.watch();
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

    @Override
    public boolean inputEnded() {
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
        faults.caught(cause);
    }

    /** A request failed for a reason of the server's own ({@link EventLoopFaults#internal}). */
    @Override
    public void internalError(Throwable e) {
        faults.internal(e, e);
    }

    @Override
    public void bodyFailed(Throwable cause, String sentAs) {
        faults.bodyFailed(cause, sentAs);
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
                http = new EventLoopHttp(this, service, failures, seams.decoder());
            }
        }
        if (http != null) {
            http.decodeNext();
            return;
        }
        nativeSide.decodeNext();
    }

    // ---- what the protocol executors are given (EventLoopExchange)

    @Override
    public EventLoopSetting setting() {
        return setting;
    }

    @Override
    public ChannelHandlerContext ctx() {
        return ctx;
    }

    @Override
    public ByteBuf pending() {
        return pending;
    }

    @Override
    public EventLoopFileWork fileWork() {
        return fileWork;
    }

    @Override
    public EventLoopBody body() {
        return body;
    }

    @Override
    public EventLoopServing request() {
        return serving;
    }

    @Override
    public EventLoopAnswerWriter answers() {
        return writer;
    }

    @Override
    public void begin(Duration budget) {
        inFlight = true;
        arm(budget, "transfer deadline");
    }

    /**
     * Reading stays on between requests and during one (what arrives waits in {@link #pending}); it pauses only while
     * more than {@link #MAX_PENDING} bytes wait, which bounds a pipelining client and paces an upload's body to the
     * pool's writes. Toggling it per request would cost two epoll_ctl calls per request.
     */
    @Override
    public void paceReading() {
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

    // ---- the connection's states after an answer

    @Override
    public void written(boolean ok) {
        inFlight = false;
        serving.serving(null, false);
        serving.transferDone();
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
    @Override
    public void endWith(ByteBuffer answer) {
        ending = true;
        inFlight = true;
        pending.clear();
        arm(LingeringClose.LINGER, "linger after the last answer");
        paceReading();
        writer.last(answer, () -> inputEnded);
    }

    /** Closes the connection if it is still in the same state after {@code budget}. */
    private void arm(Duration budget, String what) {
        deadline.arm(budget, what);
    }

    @Override
    public void bodyMoves(long bytes) {
        arm(config.transferBudget(bytes), "transfer deadline");
        deadline.watchBody(config.idleTimeout());
    }

    @Override
    public void bodyMoved() {
        deadline.bodyMoved();
    }
}
