package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.http.HttpHeadEnd;
import io.xferbench.server.http.HttpHeadMethod;
import io.xferbench.server.http.HttpRequestReader;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.http.RequestDecoder;
import io.xferbench.server.request.FailureAnswer;
import io.xferbench.server.request.FailureAnswers;
import io.xferbench.server.request.HttpPlan;
import io.xferbench.server.request.HttpRequest;
import io.xferbench.server.request.RequestService;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
    private final EventLoopExchange conn;
    private final RequestService service;
    private final FailureAnswers failures;
    private final RequestDecoder decoder;

    EventLoopHttp(EventLoopExchange conn, RequestService service, FailureAnswers failures, RequestDecoder decoder) {
        this.conn = conn;
        this.service = service;
        this.failures = failures;
        this.decoder = decoder;
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
            request = decoder.parseHttp(head);
        } catch (HttpRequestReader.BadRequest e) {
            LOG.info(() -> conn.setting().model() + " conn " + conn.ctx().channel().remoteAddress() + ": bad HTTP request: " + e.getMessage());
            end(e.status, e.getMessage(), e.headMethod);
            return;
        }
        serve(request);
    }

    /** GET sends a file of the data directory, HEAD says whether it exists and its size; as {@link HttpSession}. */
    private void serve(HttpRequest request) {
        conn.request().serving(request, request.method().equals("HEAD"));
        conn.begin(conn.setting().config().idleTimeout());
        boolean head = request.method().equals("HEAD");
        boolean keepAlive = request.keepAlive();
        switch (service.decide(request)) {
            case HttpPlan.Refusal r -> answer(EventLoopAnswerWriter.frame(HttpResponses.refusal(r, keepAlive, head)), keepAlive);
            case HttpPlan.Get get -> get(get);
        }
    }

    private void get(HttpPlan.Get get) {
        boolean head = get.head();
        boolean keepAlive = get.request().keepAlive();
        if (!head) {
            conn.request().transferStarts();
        }
        String path = get.request().path();
        SenderMethod method = get.method();
        conn.fileWork().openFile(get.name(), file -> {
            if (!conn.ctx().channel().isActive()) {
                Quietly.close(file);
                return;
            }
            ByteBuf headers;
            try {
                // A body's method is asked before the headers, as EventLoopNative asks it: refused 503 with the reason.
                String unsupported = head ? null : conn.body().unsupported(method, file.size());
                if (unsupported != null) {
                    Quietly.close(file);
                    answer(EventLoopAnswerWriter.frame(HttpResponses.error(503, unsupported, keepAlive, false, "")), keepAlive);
                    return;
                }
                headers = EventLoopAnswerWriter.frame(HttpResponses.ok(file.size(), file.crc32c(), conn.body().sentAs(method, file.size()), keepAlive));
            } catch (RuntimeException | Error e) {
                Quietly.close(file);
                throw e;
            }
            if (head) {
                Quietly.close(file);
                answer(headers, keepAlive);
                return;
            }
            send(headers, file, keepAlive, method);
        }, e -> {
            if (!(e instanceof IOException)) {
                // A RuntimeException or Error of the server's own: logged with the request named, answered 500.
                conn.internalError(e);
                return;
            }
            FailureAnswer.Answered a = failures.ofHttp((IOException) e, path);
            answer(EventLoopAnswerWriter.frame(HttpResponses.failure(a.status(), a.message(), keepAlive, head)), keepAlive);
        });
    }

    /**
     * The headers, then the body by the method asked ({@link EventLoopBody}); a method that cannot send it here is
     * answered 503 with the reason; a failure past the headers can only close the connection.
     */
    private void send(ByteBuf headers, OpenedFile file, boolean keepAlive, SenderMethod method) {
        conn.bodyMoves(file.size());
        conn.answers().cork(true);
        String sentAs = conn.body().sentAs(method, file.size());
        conn.body().send(method, new TransferOptions(0, false), headers, file, new EventLoopBody.Outcome() {
            @Override
            public void sent(long nanos) {
                conn.bodyMoved();
                conn.answers().cork(false);
                done(keepAlive);
            }

            @Override
            public void refused(Status status, String message) {
                conn.bodyMoved();
                conn.answers().cork(false);
                ByteBuffer answer = status == Status.UNAVAILABLE ? HttpResponses.error(503, message, keepAlive, false, "")
                        : HttpResponses.failure(status, message, keepAlive, false);
                answer(EventLoopAnswerWriter.frame(answer), keepAlive);
            }

            @Override
            public void internal(Throwable cause) {
                conn.bodyMoved();
                conn.answers().cork(false);
                conn.internalError(cause);
            }

            @Override
            public void failed(Throwable cause) {
                // Past the headers a failure cannot be told: a short body and a close are what HTTP has.
                conn.bodyMoved();
                conn.bodyFailed(cause, sentAs);
            }
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
            conn.request().transferDone();
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
