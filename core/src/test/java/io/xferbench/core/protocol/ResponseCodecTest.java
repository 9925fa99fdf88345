package io.xferbench.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.junit.jupiter.api.Test;

class ResponseCodecTest {

    private static ReadableByteChannel concat(ByteBuffer... frames) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel ch = Channels.newChannel(out);
        for (ByteBuffer f : frames) {
            Frames.writeFully(ch, f);
        }
        return Channels.newChannel(new ByteArrayInputStream(out.toByteArray()));
    }

    @Test
    void downloadHeaderAndTrailerRoundTrip() throws IOException {
        ReadableByteChannel in = concat(ResponseCodec.downloadHeader(new DownloadHeader(1L << 32, 0x12345678, 1000)),
                ResponseCodec.trailer(Trailer.ok(42, 7)));
        assertThat(ResponseCodec.readDownloadHeader(in)).isEqualTo(new DownloadHeader(1L << 32, 0x12345678, 1000));
        assertThat(ResponseCodec.readTrailer(in)).isEqualTo(Trailer.ok(42, 7));
    }

    @Test
    void preparedRoundTrips() throws IOException {
        ReadableByteChannel in = concat(ResponseCodec.prepared(new Prepared(-1, 1000, 123_456_789L)));
        assertThat(ResponseCodec.readPrepared(in)).isEqualTo(new Prepared(-1, 1000, 123_456_789L));
    }

    @Test
    void errorsBecomeRemoteExceptionsWithStatusAndReason() throws IOException {
        ReadableByteChannel in = concat(ResponseCodec.error(Status.NOT_FOUND, "no such file: x"));
        assertThatThrownBy(() -> ResponseCodec.readDownloadHeader(in))
                .isInstanceOfSatisfying(RemoteException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
                    assertThat(e.reason()).isEqualTo("no such file: x");
                });
    }

    @Test
    void failedTrailerCarriesTheServerReason() throws IOException {
        ReadableByteChannel in = concat(ResponseCodec.trailer(Trailer.failed(Status.NO_SPACE, "ENOSPC")));
        assertThatThrownBy(() -> ResponseCodec.readTrailer(in)).isInstanceOf(RemoteException.class).hasMessageContaining("NO_SPACE: ENOSPC");
    }

    @Test
    void refusesOutOfBoundsPayloadLength() throws IOException {
        ByteBuffer bogus = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES).putInt(Wire.MAGIC).put((byte) 0).putInt(Integer.MAX_VALUE).flip();
        ReadableByteChannel in = concat(bogus);
        assertThatThrownBy(() -> ResponseCodec.readJson(in)).isInstanceOf(ProtocolException.class).hasMessageContaining("out of bounds");
    }
}
