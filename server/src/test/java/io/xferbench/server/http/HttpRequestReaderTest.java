package io.xferbench.server.http;

import io.xferbench.server.request.HttpRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HttpRequestReaderTest {

    private static HttpRequestReader reader(String text, int sniffed) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        int s = Math.min(sniffed, b.length);
        ReadableByteChannel in = Channels.newChannel(new ByteArrayInputStream(b, s, b.length - s));
        return new HttpRequestReader(in, ByteBuffer.wrap(b, 0, s), RequestDecoder.STANDARD);
    }

    @Test
    void readsPipelinedRequestsOneAfterAnother() throws Exception {
        HttpRequestReader r = reader("GET /a%20b.dat?method=mmap&x HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-A: 2\r\n\r\n"
                + "HEAD /c HTTP/1.1\r\nhost: h\r\nConnection: close\r\n\r\n", 4);
        HttpRequest first = r.next();
        assertThat(first.method()).isEqualTo("GET");
        assertThat(first.path()).isEqualTo("/a b.dat");
        assertThat(first.query()).containsEntry("method", "mmap").containsEntry("x", "");
        assertThat(first.headers()).containsEntry("x-a", "1, 2");
        assertThat(first.keepAlive()).isTrue();
        HttpRequest second = r.next();
        assertThat(second.method()).isEqualTo("HEAD");
        assertThat(second.keepAlive()).isFalse();
        assertThat(r.next()).isNull();
    }

    /** RFC 9112 §2.2: a bare LF ends a line, a CR before it is part of the ending; the empty line ends the head. */
    @Test
    void bareLineFeedsEndLinesAndHeadsMixedWithCrlf() throws Exception {
        HttpRequestReader r = reader("GET /a HTTP/1.1\nHost: h\nX-A: 1\n\n"
                + "HEAD /b HTTP/1.1\r\nHost: h\n\r\n"
                + "GET /c HTTP/1.0\nX-B: 2\r\n\n", 4);
        HttpRequest first = r.next();
        assertThat(first.method()).isEqualTo("GET");
        assertThat(first.path()).isEqualTo("/a");
        assertThat(first.headers()).containsEntry("host", "h").containsEntry("x-a", "1").hasSize(2);
        HttpRequest second = r.next();
        assertThat(second.method()).isEqualTo("HEAD");
        assertThat(second.path()).isEqualTo("/b");
        assertThat(second.headers()).containsEntry("host", "h").hasSize(1);
        HttpRequest third = r.next();
        assertThat(third.path()).isEqualTo("/c");
        assertThat(third.headers()).containsEntry("x-b", "2").hasSize(1);
        assertThat(r.next()).isNull();
    }

    @Test
    void http10ClosesUnlessAskedToKeepAlive() throws Exception {
        assertThat(reader("GET / HTTP/1.0\r\n\r\n", 0).next().keepAlive()).isFalse();
        assertThat(reader("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 0).next().keepAlive()).isTrue();
    }

    @Test
    void badRequestsGetAStatusNeverAnException() {
        assertStatus("GET / HTTP/1.1\r\n\r\n", 400, "without Host");
        assertStatus("GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: h\r\n\r\n", 431, "exceeds");
        assertStatus("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505, "not supported");
        assertStatus("get / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "request line");
        assertStatus("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "request line");
        assertStatus("GET http://x/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "absolute path");
        assertStatus("GET / HTTP/1.1\r\nHost: h\r\nbad header\r\n\r\n", 400, "header line");
        assertStatus("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400, "header line");
        assertStatus("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello", 400, "bodies");
        assertStatus("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400, "percent");
        assertStatus("GET / HTTP/1.1\r\nHost: h\r\n", 400, "closed inside");
        // Bare LF line ends change none of the rules, and a bare CR ends no line.
        assertStatus("GET / HTTP/1.1\n\n", 400, "without Host");
        assertStatus("GET /" + "a".repeat(9000) + " HTTP/1.1\nHost: h\n\n", 431, "exceeds");
        assertStatus("GET / HTTP/1.1\nHost: h\n folded\n\n", 400, "header line");
        assertStatus("GET / HTTP/1.1\nHost: h\nContent-Length: 5\n\nhello", 400, "bodies");
        assertStatus("GET / HTTP/1.1\rHost: h\r\r", 400, "closed inside");
    }

    /**
     * Heads another parser could frame otherwise are refused, so no body is read as a request (RFC 9112 §5.1, §2.2;
     * RFC 9110 §5.5, §5.6.2): whitespace before a header's colon (a Content-Length or Transfer-Encoding that a peer
     * trims to the real one), a bare CR or another control character in a line, a name that is not a token.
     */
    @Test
    void headsAPeerCouldFrameOtherwiseAreRefused() {
        for (String line : new String[] {
            "Content-Length\t: 5", "Content-Length : 5", "Transfer-Encoding\t: chunked", "Transfer-Encoding : chunked",
            "X-A: a\rContent-Length: 5", "X-A: a\r", "Content-Length: 5\r", "\rContent-Length: 5", "Host\r: h",
            "X-A: a\u0000b", "X-A: a\u007fb", "X-A: \u001f5", "X\u0001: a", "X(A): a", "\"X\": a", "X\u00e9: a",
        }) {
            for (String eol : new String[] {"\r\n", "\n"}) {
                if (eol.equals("\n") && line.endsWith("\r")) {
                    continue; // its CR and the LF are a CRLF
                }
                assertStatus("GET / HTTP/1.1" + eol + "Host: h" + eol + line + eol + eol + "GET / HTTP/1.1" + eol + "Host: h" + eol + eol,
                        400, "header line");
            }
        }
        assertStatus("GET / HTTP/1.1\rX: y\r\nHost: h\r\n\r\n", 400, "request line");
        assertStatus("GET /a\tb HTTP/1.1\r\nHost: h\r\n\r\n", 400, "request line");
        assertStatus("GET /\u0000 HTTP/1.1\r\nHost: h\r\n\r\n", 400, "request line");
    }

    /** What a field may hold stays served: a tab and obs-text in a value, OWS around it, every tchar in a name. */
    @Test
    void fieldsWithinTheGrammarAreServed() throws Exception {
        HttpRequest r = reader("GET / HTTP/1.1\r\nHost: h\r\nX-A:\ta\tb \r\nX-B: caf\u00e9\r\n"
                + "!#$%&'*+-.^_`|~09aZ:v\r\nContent-Length: 0\r\n\r\n", 4).next();
        assertThat(r.headers()).containsEntry("x-a", "a\tb").containsEntry("x-b", "caf\u00e9")
                .containsEntry("!#$%&'*+-.^_`|~09az", "v");
    }

    /** A bad head says whether its method was HEAD, refused parsed or unparsed, so its answer can leave the body out. */
    @Test
    void aBadRequestTellsAHeadFromOtherMethods() {
        for (String head : new String[] {
            "HEAD / HTTP/1.1\r\n\r\n",
            "HEAD / HTTP/2.0\nHost: h\n\n",
            "HEAD  / HTTP/1.1\r\nHost: h\r\n\r\n",
            "HEAD /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: h\r\n\r\n",
            "HEAD / HTTP/1.1\r\nHost: h\r\n",
        }) {
            assertThatThrownBy(() -> reader(head, 4).next()).as(head.substring(0, Math.min(30, head.length())))
                    .isInstanceOfSatisfying(HttpRequestReader.BadRequest.class, e -> assertThat(e.headMethod).isTrue());
        }
        for (String other : new String[] {"GET / HTTP/1.1\r\n\r\n", "HEADER / HTTP/1.1\r\n\r\n", "HEAD"}) {
            assertThatThrownBy(() -> reader(other, 4).next()).as(other)
                    .isInstanceOfSatisfying(HttpRequestReader.BadRequest.class, e -> assertThat(e.headMethod).isFalse());
        }
    }

    @Test
    void randomBytesNeverEscapeAsAnythingButABadRequest() throws Exception {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[random.nextInt(200)];
            random.nextBytes(b);
            String prefix = random.nextBoolean() ? "GET / HTTP/1.1\r\n" : "";
            String text = prefix + new String(b, StandardCharsets.ISO_8859_1) + (random.nextBoolean() ? "\r\n\r\n" : "");
            try {
                reader(text, random.nextInt(8)).next();
            } catch (HttpRequestReader.BadRequest e) {
                assertThat(e.status).isIn(400, 431, 505);
            }
        }
    }

    private static void assertStatus(String text, int status, String message) {
        assertThatThrownBy(() -> reader(text, 4).next())
                .isInstanceOfSatisfying(HttpRequestReader.BadRequest.class, e -> assertThat(e.status).isEqualTo(status))
                .hasMessageContaining(message);
    }
}
