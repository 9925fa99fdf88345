package io.xferbench.server.model;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.http.RequestDecoder;
import io.xferbench.server.request.FileOpener;
import io.xferbench.server.request.SenderChoice;

/**
 * The points every model serves a request through, each an interface the models call as they would any other: the
 * decoding of requests, the opens of download files, the sender a download is answered by, and the upload's temp
 * file. The server's ({@link #of}) pass straight through; a test wraps them to make the failures a bug or an
 * unlucky system would make at those points, on every model, with no hook in the production code.
 */
public record Seams(RequestDecoder decoder, FileOpener files, SenderChoice senders, UploadPlacements uploads) {
    /** The server's own, over {@code data}. */
    public static Seams of(DataDirectory data) {
        return new Seams(RequestDecoder.STANDARD, FileOpener.of(data), SenderChoice.AS_LOOKED_UP, UploadPlacements.in(data));
    }
}
