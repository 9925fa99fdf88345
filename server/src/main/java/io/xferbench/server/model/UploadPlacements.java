package io.xferbench.server.model;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.protocol.Request;
import io.xferbench.server.request.Refused;
import java.io.IOException;

/**
 * Where an upload's body goes, on every model: its checks before the body and its temp file. One of the server's
 * seams ({@link Seams}): a test may wrap what it makes to fail as the writes or the verification would; the server
 * uses {@link #in}.
 */
@FunctionalInterface
public interface UploadPlacements {
    /** Temp files in {@code data}, verified and renamed into place ({@link TempFilePlacement}). */
    static UploadPlacements in(DataDirectory data) {
        return request -> TempFilePlacement.open(data, request);
    }

    /**
     * Resolves the target (the same real-path rules as every name) and creates the temp file.
     *
     * @throws Refused when the body would not fit
     */
    UploadPlacement open(Request request) throws IOException;
}
