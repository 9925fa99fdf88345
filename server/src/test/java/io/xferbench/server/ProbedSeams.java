package io.xferbench.server;

import io.xferbench.core.data.FreeSpace;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.InternalFaultProbe;
import io.xferbench.server.fault.InternalFaultProbe.Point;
import io.xferbench.server.http.HttpRequestReader;
import io.xferbench.server.http.RequestDecoder;
import io.xferbench.server.model.Seams;
import io.xferbench.server.model.UploadPlacement;
import io.xferbench.server.model.UploadPlacements;
import io.xferbench.server.request.FileOpener;
import io.xferbench.server.request.HttpRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A server's own seams ({@link Seams}) with {@link InternalFaultProbe} asked at each point before (or, where the
 * wrapped call takes something over, after) the real call: what a test sets there fails the request as the real code
 * failing there would, on every model.
 */
final class ProbedSeams {
    private ProbedSeams() {
    }

    /** A server of {@code config} whose seams ask the probe. */
    static XferServer start(ServerConfig config) throws IOException {
        return XferServer.start(config, FreeSpace.OF_FILE_SYSTEM, ProbedSeams::around);
    }

    static Seams around(Seams own) {
        return new Seams(decoder(own.decoder()), new Opener(own.files()), (method, name) -> new ProbedSender(own.senders().sender(method, name), name),
                placements(own.uploads()));
    }

    private static RequestDecoder decoder(RequestDecoder own) {
        return new RequestDecoder() {
            @Override
            public Request decodeNative(ByteBuffer body) throws ProtocolException {
                InternalFaultProbe.at(Point.PARSE, "");
                return own.decodeNative(body);
            }

            @Override
            public HttpRequest parseHttp(String head) throws HttpRequestReader.BadRequest {
                InternalFaultProbe.at(Point.PARSE, "");
                return own.parseHttp(head);
            }
        };
    }

    /** FILE_WORK at every open, named by the file ("" for a generated one, as its request names it). */
    private record Opener(FileOpener own) implements FileOpener {
        @Override
        public OpenedFile openExisting(String name) throws IOException {
            InternalFaultProbe.at(Point.FILE_WORK, name);
            return own.openExisting(name);
        }

        @Override
        public OpenedFile openExistingIfRecorded(String name) throws IOException {
            InternalFaultProbe.at(Point.FILE_WORK, name);
            return own.openExistingIfRecorded(name);
        }

        @Override
        public OpenedFile openGenerated(long size) throws IOException {
            InternalFaultProbe.at(Point.FILE_WORK, "");
            return own.openGenerated(size);
        }

        @Override
        public OpenedFile openGeneratedIfRecorded(long size) throws IOException {
            InternalFaultProbe.at(Point.FILE_WORK, "");
            return own.openGeneratedIfRecorded(size);
        }

        /** After the adoption, which takes {@code fd} over in every case: a failure here closes what it made. */
        @Override
        public OpenedFile adoptIfRemembered(String entry, int fd, long size) throws IOException {
            OpenedFile file = own.adoptIfRemembered(entry, fd, size);
            try {
                InternalFaultProbe.at(Point.FILE_WORK, entry);
            } catch (Throwable t) {
                if (file != null) {
                    file.close();
                }
                throw t;
            }
            return file;
        }
    }

    private static UploadPlacements placements(UploadPlacements own) {
        return request -> new Placement(own.open(request), request.name());
    }

    /** UPLOAD_CHUNK at an event loop's write of a chunk, UPLOAD_END at the verification. */
    private record Placement(UploadPlacement own, String name) implements UploadPlacement {
        @Override
        public FileChannel file() {
            return own.file();
        }

        @Override
        public Path tmp() {
            return own.tmp();
        }

        @Override
        public void write(ByteBuffer bytes) throws IOException {
            InternalFaultProbe.at(Point.UPLOAD_CHUNK, name);
            own.write(bytes);
        }

        @Override
        public UploadReport verify(long inlineCrc, long serverNanos, Supplier<ByteBuffer> scratch) throws IOException {
            InternalFaultProbe.at(Point.UPLOAD_END, name);
            return own.verify(inlineCrc, serverNanos, scratch);
        }

        @Override
        public UploadReport place(UploadReport verified) throws IOException {
            return own.place(verified);
        }

        @Override
        public void close() {
            own.close();
        }
    }
}
