package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The generator's HTTP response parser: heads of any size up to its bound, in any pieces, and the body checked. */
class HttpResponseParserTest {
    private static final byte[] BODY = "0123456789abcdef".repeat(64).getBytes(StandardCharsets.US_ASCII);

    private static int crc(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes);
        return (int) c.getValue();
    }

    private static byte[] response(int extraHeaderBytes, byte[] body) {
        StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n");
        for (int i = 0; head.length() < extraHeaderBytes; i++) {
            head.append("X-Filler-").append(i).append(": ").append("x".repeat(60)).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    /** Feeds {@code bytes} in pieces of {@code piece}; the outcome once the parser says the response is whole. */
    private static ExchangeOutcome feed(HttpResponseParser parser, byte[] bytes, int piece) throws LoadProtocolException {
        for (int at = 0; at < bytes.length; at += piece) {
            ByteBuffer in = ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at));
            if (parser.feed(in)) {
                assertThat(at + piece).as("whole only at the end").isGreaterThanOrEqualTo(bytes.length);
                assertThat(in.hasRemaining()).isFalse();
                return parser.outcome();
            }
        }
        return null;
    }

    @Test
    void aHeadLongerThanTheFirstBufferIsReadWholeInAnyPieces() throws LoadProtocolException {
        byte[] response = response(6_000, BODY);
        for (int piece : new int[] {1, 7, 500, 4096, response.length}) {
            ExchangeOutcome outcome = feed(new HttpResponseParser(200, false, BODY.length, crc(BODY)), response, piece);
            assertThat(outcome).as("pieces of %d", piece).isEqualTo(ExchangeOutcome.verified(BODY.length));
        }
    }

    @Test
    void aWrongByteInTheBodyIsACrcMismatch() throws LoadProtocolException {
        byte[] response = response(2_000, BODY);
        response[response.length - 1] ^= 1;
        ExchangeOutcome outcome = feed(new HttpResponseParser(200, false, BODY.length, crc(BODY)), response, 333);
        assertThat(outcome.error()).isEqualTo("crc mismatch");
    }

    @Test
    void aHeadPastTheBoundIsRefused() {
        byte[] response = response(HttpResponseParser.MAX_HEAD_BYTES + 100, BODY);
        HttpResponseParser parser = new HttpResponseParser(200, false, BODY.length, crc(BODY));
        assertThatThrownBy(() -> feed(parser, response, 1000))
                .isInstanceOf(LoadProtocolException.class)
                .hasMessageContaining("exceeds " + HttpResponseParser.MAX_HEAD_BYTES);
    }

    @Test
    void aHeadJustInsideTheBoundIsRead() throws LoadProtocolException {
        // The head with its blank line must fit in MAX_HEAD_BYTES: build one a little under it.
        byte[] response = response(HttpResponseParser.MAX_HEAD_BYTES - 200, BODY);
        ExchangeOutcome outcome = feed(new HttpResponseParser(200, false, BODY.length, crc(BODY)), response, 1000);
        assertThat(outcome).isEqualTo(ExchangeOutcome.verified(BODY.length));
    }
}
