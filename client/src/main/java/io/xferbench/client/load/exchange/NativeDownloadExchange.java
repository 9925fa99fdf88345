package io.xferbench.client.load.exchange;

import io.xferbench.core.method.loop.AutoLoopSender;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import java.nio.ByteBuffer;

/** DOWNLOAD of the server's generated file of {@code size} bytes with one transfer method, native protocol. */
public final class NativeDownloadExchange implements Exchange {
    private final ByteBuffer request;
    private final long size;
    private final int expectedCrc;
    private final String methodRun;

    public NativeDownloadExchange(String method, long size, int bufferSize, String token, int expectedCrc) {
        this.request = RequestCodec.encode(Request.download(method, size, Flags.VERIFY_CRC32C, bufferSize).withToken(token))
                .asReadOnlyBuffer();
        this.size = size;
        this.expectedCrc = expectedCrc;
        this.methodRun = methodRun(method);
    }

    /**
     * What ran for an answered request: the method asked, which the xferbench server runs or refuses; but its
     * header has no field for the pick of the event loops' {@code netty-auto} (by size, and by what the loop's transport
     * can do), so that one is unknown (null) rather than guessed.
     */
    static String methodRun(String asked) {
        return asked.equals(AutoLoopSender.METHOD.id()) ? null : asked;
    }

    @Override
    public ByteBuffer request() {
        return request.duplicate();
    }

    @Override
    public ResponseParser newParser() {
        return new NativeDownloadParser(size, expectedCrc, methodRun);
    }
}
