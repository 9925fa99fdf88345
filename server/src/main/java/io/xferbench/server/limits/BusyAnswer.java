package io.xferbench.server.limits;

import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.http.HttpHeadMethod;
import io.xferbench.server.http.HttpResponses;
import io.xferbench.server.http.ProtocolSniffer;
import java.nio.ByteBuffer;

/**
 * The answer to a client over {@code --max-connections}, in its own protocol as its first bytes tell it: the native
 * BUSY frame, or an HTTP 503 with Retry-After whose text body is left out for a HEAD. The thread models'
 * {@link BusyRefusals} and the event loops' refusal on first read both answer with it.
 */
public final class BusyAnswer {
    /** How many first bytes tell the protocol ({@link ProtocolSniffer}) and, for HTTP, a HEAD ({@link HttpHeadMethod}). */
    public static final int FIRST_BYTES = Math.max(ProtocolSniffer.SNIFF_BYTES, HttpHeadMethod.PREFIX_BYTES);

    private BusyAnswer() {
    }

    /** @param first the client's first bytes, up to {@link #FIRST_BYTES} (fewer when it sent no more); not consumed */
    public static ByteBuffer to(ByteBuffer first, String why) {
        if (!ProtocolSniffer.isHttp(first)) {
            return ResponseCodec.error(Status.BUSY, why);
        }
        return HttpResponses.error(503, why, false, HttpHeadMethod.isHead(first), "Retry-After: 1\r\n");
    }
}
