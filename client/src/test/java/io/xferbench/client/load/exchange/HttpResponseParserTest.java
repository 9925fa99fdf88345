package io.xferbench.client.load.exchange;

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

    /** A response with the given head lines (after the status line) and {@code tail} after the body. */
    private static byte[] framed(String status, String headLines, byte[] body, String tail) {
        byte[] h = ("HTTP/1.1 " + status + "\r\n" + headLines + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length + t.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        System.arraycopy(t, 0, all, h.length + body.length, t.length);
        return all;
    }

    private static HttpResponseParser parser() {
        return new HttpResponseParser(200, false, BODY.length, crc(BODY));
    }

    @Test
    void twoDifferentContentLengthsAreRefused() {
        int n = BODY.length;
        for (String lines : new String[] {"Content-Length: " + n + "\r\nContent-Length: " + (n + 1) + "\r\n",
                "Content-Length: " + (n + 1) + "\r\nContent-Length: " + n + "\r\n", "Content-Length: " + n + ", " + (n + 1) + "\r\n"}) {
            assertThatThrownBy(() -> feed(parser(), framed("200 OK", lines, BODY, ""), 100)).as(lines)
                    .isInstanceOf(LoadProtocolException.class).hasMessageContaining("differing Content-Length values");
        }
    }

    @Test
    void copiesOfOneContentLengthAreOneLength() throws LoadProtocolException {
        int n = BODY.length;
        for (String lines : new String[] {"Content-Length: " + n + "\r\nContent-Length: " + n + "\r\n", "Content-Length: " + n + ", " + n + "\r\n"}) {
            assertThat(feed(parser(), framed("200 OK", lines, BODY, ""), 100)).as(lines).isEqualTo(ExchangeOutcome.verified(n));
        }
    }

    @Test
    void aContentLengthIsDigitsOnly() {
        int n = BODY.length;
        for (String value : new String[] {"+" + n, "-" + n, " " + n + "x", "0x" + Integer.toHexString(n), n + ".0", "", "99999999999999999999"}) {
            assertThatThrownBy(() -> feed(parser(), framed("200 OK", "Content-Length: " + value + "\r\n", BODY, ""), 100)).as(value)
                    .isInstanceOf(LoadProtocolException.class).hasMessage("bad Content-Length: " + value.strip());
        }
    }

    @Test
    void aGoodAnswerTheServerClosesIsWholeAtTheCloseWithNothingAfterItsBody() throws LoadProtocolException {
        byte[] response = framed("200 OK", "Content-Length: " + BODY.length + "\r\nConnection: close\r\n", BODY, "");
        HttpResponseParser parser = parser();
        assertThat(parser.feed(ByteBuffer.wrap(response))).as("not whole before the close").isFalse();
        assertThat(parser.feed(ByteBuffer.allocate(0))).isFalse();
        assertThat(parser.closed()).isTrue();
        assertThat(parser.outcome()).isEqualTo(ExchangeOutcome.verified(BODY.length));
    }

    @Test
    void bytesAfterTheBodyOfAGoodAnswerTheServerClosesAreAnError() throws LoadProtocolException {
        String lines = "Content-Length: " + BODY.length + "\r\nConnection: close\r\n";
        assertThatThrownBy(() -> parser().feed(ByteBuffer.wrap(framed("200 OK", lines, BODY, "garbage")))).as("in the same read")
                .isInstanceOf(LoadProtocolException.class).hasMessage("bytes after the body of a Connection: close response");
        HttpResponseParser later = parser();
        assertThat(later.feed(ByteBuffer.wrap(framed("200 OK", lines, BODY, "")))).isFalse();
        assertThatThrownBy(() -> later.feed(ByteBuffer.wrap("x".getBytes(StandardCharsets.US_ASCII)))).as("in a later read")
                .isInstanceOf(LoadProtocolException.class).hasMessage("bytes after the body of a Connection: close response");
    }

    @Test
    void aRefusalTheServerClosesIsWholeAtOnceWhateverFollows() throws LoadProtocolException {
        // After a refused upload the server's next words are about the body it did not read: the refusal is the outcome.
        byte[] error = "no".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer in = ByteBuffer.wrap(framed("400 Bad Request", "Content-Length: 2\r\nConnection: close\r\n", error,
                "HTTP/1.1 400 Bad Request\r\n"));
        HttpResponseParser parser = parser();
        assertThat(parser.feed(in)).isTrue();
        assertThat(parser.outcome().error()).isEqualTo("http 400");
        assertThat(parser.closed()).isFalse();
    }
}
