package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.exchange.ExchangeOutcome;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.fileops.HttpFileClient;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code client load --protocol http} against a server that answers every GET with the right body under a framing that
 * lies: each answer closes its connection, and whatever the head or the bytes after the body say is a failed request,
 * counted by its cause, never a verified one.
 */
@Timeout(60)
class HttpFramingLoadTest {
    private static final int FILE = 16 * 1024;
    private static final byte[] BODY = new byte[FILE];
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);
    private static final int REQUESTS = 12;

    static {
        new ContentGenerator(DataDirectory.SEED).fill(ByteBuffer.wrap(BODY), 0);
    }

    /** Answers each connection's one request with {@code head} (status line and fields), the body, {@code after}; then closes. */
    private static final class Server implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

        Server(String head, String after) throws IOException {
            this(head, after, false);
        }

        /** With {@code reset}, each connection ends with a RST (SO_LINGER 0) instead of a FIN. */
        Server(String head, String after, boolean reset) throws IOException {
            Thread.ofVirtual().start(() -> {
                while (true) {
                    Socket s;
                    try {
                        s = listener.accept();
                    } catch (IOException closed) {
                        return; // the test is over
                    }
                    Thread.ofVirtual().start(() -> answer(s, head, after, reset));
                }
            });
        }

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    private static LoadResult load(String head, String after) throws Exception {
        try (Server server = new Server(head, after)) {
            return LoadEngine.run(new LoadPlan(server.address(), 2, 1, REQUESTS, null, Duration.ZERO, 0, Duration.ofSeconds(20)),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC));
        }
    }

    private static void answer(Socket s, String head, String after, boolean reset) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            int matched = 0;
            while (matched < 4) { // the request's head, up to its blank line
                int b = in.read();
                if (b < 0) {
                    return;
                }
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            }
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            answer.writeBytes((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            answer.writeBytes(BODY);
            out.write(answer.toByteArray());
            out.flush();
            if (!after.isEmpty()) {
                out.write(after.getBytes(StandardCharsets.US_ASCII)); // a write of its own: maybe a read of its own
                out.flush();
            }
            if (reset) {
                s.setSoLinger(true, 0); // the answer stays readable in the client's queue; the read after it fails
            }
        } catch (IOException e) {
            // The client closed first: its verdict is what the test checks.
        }
    }

    @Test
    void aGoodAnswerEndingWithItsConnectionIsVerified() throws Exception {
        LoadResult r = load("HTTP/1.1 200 OK\r\nContent-Length: " + FILE + "\r\nConnection: close\r\n", "");
        assertThat(r.errors()).isEmpty();
        assertThat(r.requests()).isEqualTo(REQUESTS);
        assertThat(r.verified()).isTrue();
    }

    @Test
    void aGoodAnswerEndingWithAResetIsVerifiedToo() throws Exception {
        try (Server server = new Server("HTTP/1.1 200 OK\r\nContent-Length: " + FILE + "\r\nConnection: close\r\n", "", true)) {
            LoadResult r = LoadEngine.run(new LoadPlan(server.address(), 2, 1, REQUESTS, null, Duration.ZERO, 0,
                    Duration.ofSeconds(20)), new HttpGetExchange("localhost", "/f", false, FILE, CRC));
            assertThat(r.errors()).isEmpty();
            assertThat(r.verified()).isTrue();
            try (HttpFileClient client = new HttpFileClient(server.address())) {
                HttpGetExchange get = new HttpGetExchange("localhost", "/f", false, FILE, CRC);
                assertThat(client.send(get.request(), get.newParser())).isEqualTo(ExchangeOutcome.verified(FILE));
            }
        }
    }

    @Test
    void theClientAroundTheRowsTooTakesTheCloseAsTheEndOfAGoodAnswer() throws Exception {
        try (Server server = new Server("HTTP/1.1 200 OK\r\nContent-Length: " + FILE + "\r\nConnection: close\r\n", "");
             HttpFileClient client = new HttpFileClient(server.address())) {
            HttpGetExchange get = new HttpGetExchange("localhost", "/f", false, FILE, CRC);
            assertThat(client.send(get.request(), get.newParser())).isEqualTo(ExchangeOutcome.verified(FILE));
            assertThat(client.send(get.request(), get.newParser())).as("on a new connection").isEqualTo(ExchangeOutcome.verified(FILE));
        }
    }

    @Test
    void bytesAfterTheBodyBeforeTheCloseFailTheRequest() throws Exception {
        LoadResult r = load("HTTP/1.1 200 OK\r\nContent-Length: " + FILE + "\r\nConnection: close\r\n", "garbage");
        assertThat(r.requests()).isZero();
        assertThat(r.errors()).containsOnly(java.util.Map.entry("protocol: bytes after the body of a Connection: close response",
                (long) REQUESTS));
        assertThat(r.verified()).isFalse();
    }

    @Test
    void twoDifferentContentLengthsFailTheRequest() throws Exception {
        LoadResult r = load("HTTP/1.1 200 OK\r\nContent-Length: " + FILE + "\r\nContent-Length: " + (FILE - 1)
                + "\r\nConnection: close\r\n", "");
        assertThat(r.requests()).isZero();
        assertThat(r.errors()).containsOnly(java.util.Map.entry("protocol: differing Content-Length values " + FILE + " and "
                + (FILE - 1), (long) REQUESTS));
    }

    @Test
    void aSignedContentLengthFailsTheRequest() throws Exception {
        LoadResult r = load("HTTP/1.1 200 OK\r\nContent-Length: +" + FILE + "\r\nConnection: close\r\n", "");
        assertThat(r.requests()).isZero();
        assertThat(r.errors()).containsOnly(java.util.Map.entry("protocol: bad Content-Length: +" + FILE, (long) REQUESTS));
    }
}
