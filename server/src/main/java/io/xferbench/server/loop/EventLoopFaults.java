package io.xferbench.server.loop;

import io.netty.channel.ChannelHandlerContext;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.fault.BodyCutShort;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.fault.ServerFault;
import io.xferbench.server.http.HttpResponses;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * How a failure ends an event-loop connection: the socket's own (the client left) closes it quietly; the server's own
 * (a RuntimeException, an Error, found wrapped too: {@link ServerFault}) is logged ({@link InternalErrors}) and
 * answered SERVER_ERROR, or 500 on HTTP, while nothing of the answer is out, else the connection closes. Loop only.
 */
final class EventLoopFaults {
    private static final Logger LOG = Logger.getLogger(EventLoopFaults.class.getName());

    private final EventLoopSetting setting;
    private final EventLoopServing serving;
    /** The connection is ending already (its last answer sent): nothing more may be answered. */
    private final BooleanSupplier ending;
    /** The connection speaks HTTP: an error answer is an HTTP one. */
    private final BooleanSupplier http;
    /** Told that the client left, before the close. */
    private final Consumer<Object> peerLeft;
    /** Sends a last answer, then ends the connection. */
    private final Consumer<ByteBuffer> endWith;
    private ChannelHandlerContext ctx;

    EventLoopFaults(EventLoopSetting setting, EventLoopServing serving, BooleanSupplier ending, BooleanSupplier http,
            Consumer<Object> peerLeft, Consumer<ByteBuffer> endWith) {
        this.setting = setting;
        this.serving = serving;
        this.ending = ending;
        this.http = http;
        this.peerLeft = peerLeft;
        this.endWith = endWith;
    }

    /** The connection's channel, once its handler is added. */
    void attach(ChannelHandlerContext context) {
        ctx = context;
    }

    /** What the channel's pipeline caught. */
    void caught(Throwable cause) {
        Throwable fault = ServerFault.of(cause);
        if (fault == null) {
            // The socket's own failure (a reset, a broken pipe): the client left, nothing of ours to report.
            LOG.fine(() -> setting.model() + " conn " + ctx.channel().remoteAddress() + ": closed: " + cause);
            peerLeft.accept(cause);
            ctx.close();
            return;
        }
        // Anything else thrown while serving on the loop (an Error included) is the server's: it was closed at FINE.
        internal(fault, cause);
    }

    /**
     * A request failed for a reason of the server's own: logged with the model, the client and the request; answered
     * while nothing of its answer is out, then the connection ends as after a bad request (FIN, a bounded drain); else
     * it is closed. {@code e} is the {@code fault} found in {@code thrown}.
     */
    void internal(Throwable e, Throwable thrown) {
        try {
            InternalErrors.report(setting.model(), serving.peer(), serving.current(), e, thrown);
            if (ending.getAsBoolean() || serving.answerStarted() || !ctx.channel().isActive()) {
                ctx.close();
                return;
            }
            String reason = InternalErrors.clientReason(e, setting.data().root());
            endWith.accept(http.getAsBoolean() ? HttpResponses.error(500, reason, false, serving.head(), "")
                    : ResponseCodec.error(Status.SERVER_ERROR, reason));
        } catch (RuntimeException | Error again) {
            // Answering failed too (out of memory, say): the close is what is left.
            ctx.close();
        }
    }

    /**
     * A body's write failed past the answer's head: the connection closes. The write's future carries a failure of
     * Netty's or ours (a RuntimeException, an Error, often wrapped) as it carries a socket's, so it is told apart here
     * and reported as an internal error, with its stack trace.
     */
    void bodyFailed(Throwable cause, String sentAs) {
        Throwable fault = ServerFault.of(cause);
        if (fault != null) {
            internal(fault, cause);
            return;
        }
        BodyCutShort.log(setting.model(), serving.peer(), serving.current(), sentAs, cause);
        ctx.close();
    }
}
