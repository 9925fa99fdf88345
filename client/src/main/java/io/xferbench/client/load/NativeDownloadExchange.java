package io.xferbench.client.load;

import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import java.nio.ByteBuffer;

/** DOWNLOAD of the server's generated file of {@code size} bytes with one transfer method, native protocol. */
final class NativeDownloadExchange implements Exchange {
    private final ByteBuffer request;
    private final long size;
    private final int expectedCrc;

    NativeDownloadExchange(String method, long size, int bufferSize, String token, int expectedCrc) {
        this.request = RequestCodec.encode(Request.download(method, size, Flags.VERIFY_CRC32C, bufferSize).withToken(token))
                .asReadOnlyBuffer();
        this.size = size;
        this.expectedCrc = expectedCrc;
    }

    @Override
    public ByteBuffer request() {
        return request.duplicate();
    }

    @Override
    public ResponseParser newParser() {
        return new NativeDownloadParser(size, expectedCrc);
    }
}
