package io.xferbench.server;

import io.netty.buffer.ByteBuf;
import io.xferbench.core.data.OpenedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.logging.Logger;

/**
 * The HTTP/1.1 side of an event-loop connection ({@link EventLoopConnection}, which sniffed it from the first bytes):
 * request heads decoded from the connection's buffer, GET answered with a file of the data directory and HEAD with
 * whether it exists and its size, as {@link HttpSession} serves them on the threaded models (same path rules, token,
 * lines ending in CRLF or a bare LF, 4xx for bad heads, 431 past {@link HttpRequestReader#MAX_HEAD_BYTES}). Runs on
 * the connection's loop; the connection keeps the states, deadlines and where the file is opened.
 */
final class EventLoopHttp {
    private static final Logger LOG = Logger.getLogger(EventLoopHttp.class.getName());

    private final EventLoopConnection conn;

    EventLoopHttp(EventLoopConnection conn) {
        this.conn = conn;
    }

    /** Serves the next request head, if a whole one has arrived; bounded as {@link HttpRequestReader} bounds it. */
    void decodeNext() {
        ByteBuf pending = conn.pending();
        HttpHeadEnd end = HttpHeadEnd.find(pending.nioBuffer(), pending.readableBytes());
        if (end == null) {
            if (pending.readableBytes() >= HttpRequestReader.MAX_HEAD_BYTES) {
                endOversized(pending);
            }
            return;
        }
        if (end.content() > HttpRequestReader.MAX_HEAD_BYTES) {
            endOversized(pending);
            return;
        }
        String head = pending.toString(pending.readerIndex(), end.content(), StandardCharsets.ISO_8859_1);
        pending.skipBytes(end.next());
        pending.discardSomeReadBytes();
        HttpRequest request;
        try {
            request = HttpRequestReader.parse(head);
        } catch (HttpRequestReader.BadRequest e) {
            LOG.info(() -> conn.model() + " conn " + conn.ctx().channel().remoteAddress() + ": bad HTTP request: " + e.getMessage());
            end(e.status, e.getMessage(), e.headMethod);
            return;
        }
        serve(request);
    }

    /** GET sends a file of the data directory, HEAD says whether it exists and its size; as {@link HttpSession}. */
    private void serve(HttpRequest request) {
        conn.serving(request, request.method().equals("HEAD"));
        conn.begin(conn.config().idleTimeout());
        boolean head = request.method().equals("HEAD");
        boolean keepAlive = request.keepAlive();
        ByteBuffer refusal = HttpResponses.refusal(request, conn.config());
        if (refusal != null) {
            answer(EventLoopConnection.frame(refusal), keepAlive);
            return;
        }
        if (!head) {
            conn.transferStarts();
        }
        String path = request.path();
        conn.openFile(path.substring(1), file -> {
            if (!conn.ctx().channel().isActive()) {
                EventLoopConnection.closeQuietly(file);
                return;
            }
            ByteBuf headers;
            try {
                InternalFaultProbe.at(InternalFaultProbe.Point.ANSWER, path.substring(1));
                headers = EventLoopConnection.frame(HttpResponses.ok(file.size(), file.crc32c(), conn.bodySentAs(file.size()), keepAlive));
            } catch (RuntimeException | Error e) {
                EventLoopConnection.closeQuietly(file);
                throw e;
            }
            if (head) {
                EventLoopConnection.closeQuietly(file);
                answer(headers, keepAlive);
                return;
            }
            send(headers, file, keepAlive);
        }, e -> {
            if (!(e instanceof IOException)) {
                // A RuntimeException or Error of the server's own: logged with the request named, answered 500.
                conn.internalError(e);
                return;
            }
            ByteBuffer answer = switch (e) {
                case NoSuchFileException n -> HttpResponses.error(404, path + ": no such file", keepAlive, head, "");
                case AccessDeniedException a -> HttpResponses.error(403, path + ": " + ClientMessages.reason(a), keepAlive, head, "");
                default -> HttpResponses.failure(FailureStatus.of(e), path + ": " + ClientMessages.of(e, conn.data().root()), keepAlive, head);
            };
            answer(EventLoopConnection.frame(answer), keepAlive);
        });
    }

    /** The headers, then the body ({@link EventLoopConnection#writeBody}); a failure past the headers can only close the connection. */
    private void send(ByteBuf headers, OpenedFile file, boolean keepAlive) {
        conn.bodyMoves(file.size());
        conn.cork(true);
        try {
            conn.writeHead(headers, file.size());
            InternalFaultProbe.at(InternalFaultProbe.Point.BODY, file.path().getFileName().toString());
        } catch (RuntimeException | Error e) {
            EventLoopConnection.closeQuietly(file);
            throw e;
        }
        conn.writeBody(file).addListener(f -> {
            EventLoopConnection.closeQuietly(file);
            conn.bodyMoved();
            if (!f.isSuccess()) {
                // Past the headers a failure cannot be told: a short body and a close are what HTTP has.
                conn.bodyFailed(f.cause(), file.size());
                return;
            }
            conn.cork(false);
            done(keepAlive);
        });
    }

    private void answer(ByteBuf answer, boolean keepAlive) {
        conn.ctx().writeAndFlush(answer).addListener(f -> {
            if (f.isSuccess()) {
                done(keepAlive);
            } else {
                conn.ctx().close();
            }
        });
    }

    /** The response is out: the next request on a kept-alive connection, else FIN and a bounded drain. */
    private void done(boolean keepAlive) {
        if (keepAlive) {
            conn.written(true);
        } else {
            conn.transferDone();
            conn.endWith(null);
        }
    }

    /** A head over the limit, refused unparsed: whether it asks HEAD is told by its first bytes. */
    private void endOversized(ByteBuf pending) {
        end(431, "request head exceeds " + HttpRequestReader.MAX_HEAD_BYTES + " bytes", HttpHeadMethod.isHead(pending.nioBuffer()));
    }

    /** A bad request: answered (without its text body when the method was HEAD), then the connection ends. */
    private void end(int status, String message, boolean headMethod) {
        conn.endWith(HttpResponses.error(status, message, false, headMethod, ""));
    }
}
