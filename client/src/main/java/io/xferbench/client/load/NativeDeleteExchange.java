package io.xferbench.client.load;

import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.Status;
import java.nio.ByteBuffer;

/** DELETE of a name, native protocol: verified on the empty OK frame; NOT_FOUND is an error like any status. */
final class NativeDeleteExchange implements NamedExchange {
    private final String token;

    NativeDeleteExchange(String token) {
        this.token = token;
    }

    @Override
    public ByteBuffer request(String name) {
        return RequestCodec.encode(Request.onFile(Op.DELETE, name).withToken(token));
    }

    @Override
    public ResponseParser newParser() {
        return new ResponseParser() {
            private final NativeDownloadParser.FrameReader frame = new NativeDownloadParser.FrameReader();
            private ExchangeOutcome outcome;

            @Override
            public boolean feed(ByteBuffer in) throws LoadProtocolException {
                if (!frame.feed(in)) {
                    return false;
                }
                if (frame.status() != Status.OK) {
                    outcome = ExchangeOutcome.failed(frame.status().name(), 0);
                } else {
                    frame.payload(0, "delete answer");
                    outcome = ExchangeOutcome.verified(0);
                }
                return true;
            }

            @Override
            public ExchangeOutcome outcome() {
                return outcome;
            }
        };
    }
}
