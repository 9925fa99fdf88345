package io.xferbench.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import org.junit.jupiter.api.Test;

class RequestCodecTest {

    private static ReadableByteChannel channel(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return Channels.newChannel(new ByteArrayInputStream(bytes));
    }

    @Test
    void roundTripsEveryField() throws IOException {
        Request r = new Request(Op.DOWNLOAD, "transfer-to", "dir/ñame.dat", "s3cret", 1L << 33, 0xCAFEBABE,
                Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 65536);
        assertThat(RequestCodec.read(channel(RequestCodec.encode(r)))).isEqualTo(r);
    }

    /** A proxy's forwarded frame carries its hop count: version 2, one byte more than version 1. */
    @Test
    void roundTripsTheHopCountAsVersionTwo() throws IOException {
        Request client = new Request(Op.DOWNLOAD, "transfer-to", "f", "t", 9, 0, Flags.VERIFY_CRC32C, 4096);
        ByteBuffer plain = RequestCodec.encode(client);
        ByteBuffer forwarded = RequestCodec.encode(client.forwarded());
        assertThat(plain.get(Wire.REQUEST_PREFIX_BYTES)).as("no hops: version 1, which old servers read").isEqualTo((byte) 1);
        assertThat(forwarded.get(Wire.REQUEST_PREFIX_BYTES)).isEqualTo((byte) 2);
        assertThat(forwarded.remaining()).isEqualTo(plain.remaining() + 1);
        assertThat(forwarded.getShort(4)).isEqualTo((short) (plain.getShort(4) + 1));
        assertThat(RequestCodec.read(channel(plain)).hops()).isZero();
        for (int hops : new int[] {1, Wire.MAX_PROXY_HOPS, Wire.MAX_HOPS_FIELD}) {
            Request r = new Request(Op.PROXY, "copy", "", "", 0, 0, 0, 0, hops);
            assertThat(RequestCodec.read(channel(RequestCodec.encode(r)))).isEqualTo(r);
        }
        assertThat(client.forwarded().forwarded().withToken("x").withName("g").withoutCacheFlags().hops()).isEqualTo(2);
    }

    @Test
    void refusesAVersionTwoFrameWithoutHopsOrWithZeroHops() {
        ByteBuffer v2 = RequestCodec.encode(Request.download("stream", 10, 0, 0).forwarded()).position(Wire.REQUEST_PREFIX_BYTES).slice();
        ByteBuffer cut = v2.duplicate().limit(v2.limit() - 1);
        assertThatThrownBy(() -> decode(cut)).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
        ByteBuffer zero = v2.duplicate().put(v2.limit() - 1, (byte) 0);
        assertThatThrownBy(() -> decode(zero)).isInstanceOf(ProtocolException.class).hasMessageContaining("0 proxy hops");
        ByteBuffer v1WithAByteMore = v2.duplicate().put(0, (byte) 1);
        assertThatThrownBy(() -> decode(v1WithAByteMore)).isInstanceOf(ProtocolException.class).hasMessageContaining("unexpected bytes");
    }

    @Test
    void encoderRefusesHopsOutsideTheField() {
        assertThatThrownBy(() -> RequestCodec.encode(new Request(Op.INFO, "", "", "", 0, 0, 0, 0, 256))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RequestCodec.encode(new Request(Op.INFO, "", "", "", 0, 0, 0, 0, -1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cleanEofBeforeAFrameIsNotAnError() throws IOException {
        assertThat(RequestCodec.read(channel(ByteBuffer.allocate(0)))).isNull();
    }

    @Test
    void refusesWrongMagic() {
        ByteBuffer b = RequestCodec.encode(Request.control(Op.INFO));
        b.putInt(0, 0x47455420); // "GET "
        assertThatThrownBy(() -> RequestCodec.read(channel(b))).isInstanceOf(ProtocolException.class).hasMessageContaining("bad magic");
    }

    @Test
    void refusesOversizedHeaderBeforeReadingIt() {
        ByteBuffer b = ByteBuffer.allocate(6).putInt(Wire.MAGIC).putShort((short) 0xFFFF).flip();
        assertThatThrownBy(() -> RequestCodec.read(channel(b))).isInstanceOf(ProtocolException.class).hasMessageContaining("exceeds");
    }

    @Test
    void refusesTruncatedHeader() {
        ByteBuffer full = RequestCodec.encode(Request.download("stream", 10, 0, 0));
        ByteBuffer cut = full.limit(full.limit() - 3);
        assertThatThrownBy(() -> RequestCodec.read(channel(cut))).isInstanceOf(ProtocolException.class).hasMessageContaining("truncated");
    }

    @Test
    void refusesNegativeSizeUnknownOpFlagsAndBadUtf8() {
        assertThatThrownBy(() -> decode(body(b -> b.putLong(8, -1)))).hasMessageContaining("negative size");
        assertThatThrownBy(() -> decode(body(b -> b.put(1, (byte) 99)))).hasMessageContaining("unknown operation");
        assertThatThrownBy(() -> decode(body(b -> b.putShort(2, (short) 0x8000)))).hasMessageContaining("unknown flags");
        assertThatThrownBy(() -> decode(body(b -> b.put(0, (byte) 7)))).hasMessageContaining("unsupported protocol version");
        Request named = new Request(Op.DOWNLOAD, "m", "ab", "", 1, 0, 0, 0);
        ByteBuffer withName = RequestCodec.encode(named).position(Wire.REQUEST_PREFIX_BYTES).slice();
        withName.put(1 + 1 + 2 + 1 + 1 + 2, (byte) 0xC3); // a lone UTF-8 lead byte
        assertThatThrownBy(() -> decode(withName)).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void refusesStringLengthsPastTheBody() {
        ByteBuffer b = body(x -> x.put(4, (byte) 200)); // method length 200 > 64
        assertThatThrownBy(() -> decode(b)).hasMessageContaining("method of 200 bytes exceeds");
        ByteBuffer c = body(x -> x.put(4, (byte) 60)); // in bounds, but longer than what is left
        assertThatThrownBy(() -> decode(c)).hasMessageContaining("truncated");
    }

    @Test
    void encoderRefusesStringsOverTheLimit() {
        assertThatThrownBy(() -> RequestCodec.encode(Request.download("x".repeat(65), 1, 0, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A valid body with an empty method, name and token (fixed offsets), edited by {@code edit}. */
    private static ByteBuffer body(java.util.function.Consumer<ByteBuffer> edit) {
        ByteBuffer b = RequestCodec.encode(new Request(Op.DOWNLOAD, "", "", "", 5, 0, 0, 0)).position(Wire.REQUEST_PREFIX_BYTES).slice();
        edit.accept(b);
        return b;
    }

    private static Request decode(ByteBuffer body) throws ProtocolException {
        return RequestCodec.decodeBody(body);
    }
}
