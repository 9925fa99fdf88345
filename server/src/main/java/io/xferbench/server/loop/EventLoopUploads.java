package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.server.model.UploadPlacement;
import io.xferbench.server.model.UploadPlacements;
import io.xferbench.server.request.ClientMessages;
import io.xferbench.server.request.FailureStatus;
import io.xferbench.server.request.Plan;
import io.xferbench.server.request.VerifyFailed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * Executes the UPLOAD plans of one event-loop connection ({@link Plan.Upload}, decided by the request service): the
 * temp file opened on the file pool, the ready frame, the body handed to the pool as it arrives, verified and placed
 * there; answered as {@link UploadHandler} answers on the threaded models. Runs on the connection's loop.
 */
final class EventLoopUploads {
    private static final Logger LOG = Logger.getLogger(EventLoopUploads.class.getName());

    private final EventLoopExchange conn;
    private final UploadPlacements placements;
    /** The answer to a failed pool task before the body (a refused open): the connection's one mapping. */
    private final Consumer<Throwable> failed;
    /** The upload whose body is arriving, if any. */
    private EventLoopUpload upload;

    EventLoopUploads(EventLoopExchange conn, UploadPlacements placements, Consumer<Throwable> failed) {
        this.conn = conn;
        this.placements = placements;
        this.failed = failed;
    }

    /**
     * The temp file (on the pool), the ready frame, and the body as it arrives. A body that is already
     * here whole (a client that sends it right behind the header) is opened, written, verified and placed by one pool
     * task, and ready and result leave together: one hand-off to the pool and back instead of three (open, the chunk,
     * the verification and rename), and one send instead of two.
     */
    void start(Plan.Upload plan) {
        Request request = plan.request();
        conn.request().transferStarts();
        ByteBuf pending = conn.pending();
        if (pending.readableBytes() >= request.size()) {
            // Copied, not consumed: a refused open leaves the stream as the chunked way does. The copy is bounded by
            // what may wait in the buffer (reading pauses past EventLoopConnection.MAX_PENDING).
            ByteBuffer body = ByteBuffer.allocate((int) request.size());
            pending.getBytes(pending.readerIndex(), body);
            body.flip();
            conn.fileWork().offload(() -> wholeUpload(request, body), finished -> wholeUploadDone(request, finished), failed);
            return;
        }
        conn.fileWork().offload(() -> placements.open(request), placement -> {
            if (!conn.ctx().channel().isActive()) {
                conn.fileWork().closeOnPool(placement);
                return;
            }
            upload = new EventLoopUpload(request, placement);
            conn.watchForReset();
            // A client that stops sending is closed after the idle timeout, not after its size's whole budget.
            conn.bodyMoves(request.size());
            conn.ctx().writeAndFlush(EventLoopAnswerWriter.frame(ResponseCodec.uploadReady(request.size())));
            feedBody();
        }, failed);
    }

    /**
     * How an upload ended on the pool: the ready frame if the temp file was opened, the answer, and whether that
     * answer ends the connection (a failure inside the body, as {@link UploadHandler} ends it).
     */
    private record Finished(ByteBuffer ready, ByteBuffer answer, boolean endsConnection) {
    }

    /** On the pool: a body that arrived whole, opened, written, verified and placed; a refused open is thrown. */
    private Finished wholeUpload(Request request, ByteBuffer body) throws IOException {
        UploadPlacement placement = placements.open(request);
        ByteBuffer ready = ResponseCodec.uploadReady(request.size());
        try (placement) {
            long start = System.nanoTime();
            CRC32C crc = new CRC32C();
            try {
                crc.update(body.duplicate());
                placement.write(body);
            } catch (IOException | RuntimeException e) {
                placement.close();
                LOG.info(() -> conn.setting().model() + " upload of " + request.name() + " failed in the body: " + e);
                return new Finished(ready, failedInBody(request, e), true);
            }
            return new Finished(ready, finishOnPool(placement, crc.getValue(), System.nanoTime() - start, request.name()), false);
        }
    }

    /** On the loop: the whole body is consumed, ready and answer go out in one flush. */
    private void wholeUploadDone(Request request, Finished finished) {
        if (!conn.ctx().channel().isActive()) {
            return;
        }
        conn.pending().skipBytes((int) request.size());
        conn.pending().discardSomeReadBytes();
        finishAnswer(finished);
    }

    /** Writes an ended upload's frames (the ready frame only if it was not sent before). */
    private void finishAnswer(Finished finished) {
        if (finished.endsConnection()) {
            if (finished.ready() != null) {
                conn.ctx().write(EventLoopAnswerWriter.frame(finished.ready()));
            }
            conn.endWith(finished.answer());
            return;
        }
        if (finished.ready() != null) {
            conn.ctx().write(EventLoopAnswerWriter.frame(finished.ready()));
        }
        conn.answers().answer(finished.answer());
    }

    private ByteBuffer failedInBody(Request request, Throwable e) {
        return ResponseCodec.error(FailureStatus.of(e), "upload of " + request.name() + " failed, nothing stored: " + ClientMessages.of(e, conn.setting().data().root()));
    }

    /**
     * Hands what arrived of the body to the pool, one chunk at a time; the last one is also verified and placed by the
     * same pool task, which saves a hand-off back to the loop and out again.
     */
    void feedBody() {
        ByteBuf pending = conn.pending();
        EventLoopUpload u = upload;
        if (u.writing) {
            return;
        }
        if (u.remaining() == 0) {
            upload = null;
            completeUpload(u);
            return;
        }
        int n = (int) Math.min(pending.readableBytes(), u.remaining());
        if (n == 0) {
            if (conn.inputEnded()) {
                // The client shut its side down inside the body: it cannot be whole; closing removes the temp file.
                conn.ctx().close();
            }
            return;
        }
        ByteBuffer chunk = ByteBuffer.allocate(n);
        pending.readBytes(chunk);
        pending.discardSomeReadBytes();
        chunk.flip();
        boolean last = n == u.remaining();
        if (last) {
            conn.bodyMoved();
        }
        u.handOver(n);
        conn.paceReading();
        conn.fileWork().offload(() -> writeChunk(u, chunk, last), finished -> chunkWritten(u, finished), e -> chunkFailed(u, e));
    }

    /** On the pool: a chunk written; the last one also verified and placed, with the answer it makes. */
    private Finished writeChunk(EventLoopUpload u, ByteBuffer chunk, boolean last) throws IOException {
        try {
            u.write(chunk);
        } catch (IOException | RuntimeException e) {
            // Removed here, before the loop answers (ENOSPC, say): handed back to the pool, the removal raced
            // the answer and a client could see the temp file after NO_SPACE.
            u.placement.close();
            throw e;
        }
        if (!last) {
            return null;
        }
        long serverNanos = System.nanoTime() - u.startNanos;
        try (UploadPlacement placement = u.placement) {
            return new Finished(null, finishOnPool(placement, u.crc32c(), serverNanos, u.request.name()), false);
        }
    }

    /** Back on the loop: the next chunk, or the answer once the last one is placed. */
    private void chunkWritten(EventLoopUpload u, Finished finished) {
        u.writing = false;
        if (upload != u) {
            // The connection closed meanwhile (idempotent when the last chunk already placed or removed it).
            conn.fileWork().closeOnPool(u.placement);
            return;
        }
        if (finished == null) {
            feedBody();
            return;
        }
        upload = null;
        finishAnswer(finished);
    }

    private void chunkFailed(EventLoopUpload u, Throwable e) {
        u.writing = false;
        conn.fileWork().closeOnPool(u.placement);
        if (upload != u) {
            return;
        }
        upload = null;
        if (!(e instanceof IOException)) {
            // The server's own failure (a RuntimeException, an Error): logged with the request named, SERVER_ERROR.
            conn.internalError(e);
            return;
        }
        // Inside the body: answered, the rest drained (bounded), then closed, as UploadHandler does.
        LOG.info(() -> conn.setting().model() + " upload of " + u.request.name() + " failed in the body: " + e);
        conn.endWith(failedInBody(u.request, e));
    }

    /** An empty body: verified, renamed into place, answered (on the pool). */
    private void completeUpload(EventLoopUpload u) {
        long serverNanos = System.nanoTime() - u.startNanos;
        onFiles(() -> {
            try (UploadPlacement placement = u.placement) {
                return finishOnPool(placement, u.crc32c(), serverNanos, u.request.name());
            }
        });
    }

    /**
     * On the pool, the whole body written: verified and renamed into place; the answer, an error one when the upload
     * is refused (the stream stays in step: the connection goes on).
     */
    private ByteBuffer finishOnPool(UploadPlacement placement, long crc32c, long serverNanos, String name) {
        UploadReport report;
        try {
            report = placement.verify(crc32c, serverNanos, () -> {
                throw new IllegalStateException("the event loop checksums every body as it passes");
            });
        } catch (VerifyFailed e) {
            LOG.info(() -> conn.setting().model() + " upload of " + name + " refused: " + e.getMessage());
            return ResponseCodec.error(Status.VERIFY_FAILED, conn.setting().model() + ": " + e.getMessage());
        } catch (IOException e) {
            return ResponseCodec.error(FailureStatus.of(e), conn.setting().model() + ": upload of " + name + " not stored: " + ClientMessages.of(e, conn.setting().data().root()));
        }
        try {
            return ResponseCodec.uploadResult(placement.place(report));
        } catch (IOException e) {
            return ResponseCodec.error(FailureStatus.of(e), conn.setting().model() + ": upload of " + name + " not put in place: " + ClientMessages.of(e, conn.setting().data().root()));
        }
    }

    /** Runs {@code work} on the file pool and writes the frame it returns (or the answer to its failure). */
    private void onFiles(FileTask<ByteBuffer> work) {
        conn.fileWork().offload(work, conn.answers()::answer, failed);
    }

    /** An upload's body is arriving: what is received goes to {@link #feedBody}, not to the decoder. */
    boolean receivingBody() {
        return upload != null;
    }

    /** The client left (a reset, a broken pipe): an upload inside its body is logged as the thread models log it. */
    void peerLeft(Object why) {
        EventLoopUpload u = upload;
        if (u != null) {
            LOG.info(() -> conn.setting().model() + " upload of " + u.request.name() + " failed in the body: " + why);
        }
    }

    /** The connection closed: the temp file goes now, or, with a chunk on the pool, when that chunk returns and finds the upload abandoned. */
    void closed() {
        if (upload != null && !upload.writing) {
            conn.fileWork().closeOnPool(upload.placement);
        }
        upload = null;
    }
}
