package io.xferbench.client.load.exchange;

import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import java.nio.ByteBuffer;

/** DELETE of a name, native protocol: verified on the empty OK frame; NOT_FOUND is an error like any status. */
public final class NativeDeleteExchange implements NamedExchange {
    private final String token;

    public NativeDeleteExchange(String token) {
        this.token = token;
    }

    @Override
    public ByteBuffer request(String name) {
        return RequestCodec.encode(Request.onFile(Op.DELETE, name).withToken(token));
    }

    @Override
    public ResponseParser newParser() {
        return new OneFrameAnswerParser() {
            @Override
            ExchangeOutcome judge(NativeDownloadParser.FrameReader ok) throws LoadProtocolException {
                ok.payload(0, "delete answer");
                return ExchangeOutcome.verified(0);
            }
        };
    }
}
