package io.xferbench.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RequestPrefixTest {
    @Test
    void aGoodPrefixGivesItsLengthWithoutConsumingIt() throws ProtocolException {
        ByteBuffer b = ByteBuffer.allocate(8).putShort((short) 7).putInt(Wire.MAGIC).putShort((short) 42);
        assertThat(RequestPrefix.bodyLength(b, 2)).isEqualTo(42);
        assertThat(b.position()).isEqualTo(8);
    }

    @Test
    void badMagicAndOversizedLengthsAreBadRequests() {
        assertThatThrownBy(() -> RequestPrefix.bodyLength(0x47455420, 10)).isInstanceOf(ProtocolException.class)
                .hasMessage("bad magic 0x47455420 (not an xferbench client?)");
        assertThatThrownBy(() -> RequestPrefix.bodyLength(Wire.MAGIC, Wire.MAX_REQUEST_BODY_BYTES + 1))
                .hasMessage("request header of " + (Wire.MAX_REQUEST_BODY_BYTES + 1) + " bytes exceeds " + Wire.MAX_REQUEST_BODY_BYTES);
        assertThat(RequestPrefix.truncated(3).getMessage()).isEqualTo("truncated request header (3 of 6 prefix bytes)");
        assertThat(RequestPrefix.truncated(9).getMessage()).isEqualTo("truncated request header");
    }
}
