package io.xferbench.client.load.exchange;

import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import java.nio.ByteBuffer;

/** STAT of one file (the "exist" operation), native protocol: verified when the server says it exists with its size. */
public final class NativeStatExchange implements Exchange {
    private static final int PAYLOAD = 17;

    private final ByteBuffer request;
    private final long size;

    public NativeStatExchange(String name, long size, String token) {
        this.request = RequestCodec.encode(Request.onFile(Op.STAT, name).withToken(token)).asReadOnlyBuffer();
        this.size = size;
    }

    @Override
    public ByteBuffer request() {
        return request.duplicate();
    }

    @Override
    public String op() {
        return "exist";
    }

    @Override
    public ResponseParser newParser() {
        return new OneFrameAnswerParser() {
            @Override
            ExchangeOutcome judge(NativeDownloadParser.FrameReader ok) throws LoadProtocolException {
                ByteBuffer p = ok.payload(PAYLOAD, "stat");
                boolean exists = p.get() == 1;
                long statSize = p.getLong();
                return !exists ? ExchangeOutcome.failed("absent", 0)
                        : statSize != size ? ExchangeOutcome.failed("size mismatch", 0) : ExchangeOutcome.verified(0);
            }

            @Override
            public boolean closesConnection() {
                return outcome() != null && !outcome().ok();
            }
        };
    }
}
