package io.xferbench.server;

import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.server.config.ServerConfig;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** HTTP/1.1 on the server's port: curl byte-exact, every method, keep-alive, and bad HTTP answered or closed, never hung. */
@Timeout(180)
public class HttpServingTest {
    private static final int SIZE = 300_001;

    @TempDir
    Path dataDir;

    /** A response as a minimal blocking client reads it. */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public int crc() {
            CRC32C c = new CRC32C();
            c.update(body);
            return (int) c.getValue();
        }
    }

    public static Response read(InputStream in, boolean head) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        String status = null;
        Map<String, String> headers = new LinkedHashMap<>();
        while (true) {
            int b = in.read();
            if (b < 0) {
                return status == null ? null : new Response(Integer.parseInt(status.split(" ")[1]), headers, new byte[0]);
            }
            if (b != '\n') {
                line.write(b);
                continue;
            }
            String l = line.toString(StandardCharsets.ISO_8859_1).strip();
            line.reset();
            if (status == null) {
                status = l;
            } else if (l.isEmpty()) {
                break;
            } else {
                int colon = l.indexOf(':');
                headers.put(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
            }
        }
        int length = head ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        return new Response(Integer.parseInt(status.split(" ")[1]), headers, in.readNBytes(length));
    }

    private static Socket connect(XferServer server) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.port()));
        s.setSoTimeout(30_000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Over --max-connections an HTTP client hears 503 in HTTP (it got the native BUSY frame), a native one BUSY. */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual+pool:2", "netty-epoll", "netty-io-uring"})
    void clientsOverTheLimitAreToldBusyInTheirOwnProtocol(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(1));
             XferConnection held = XferConnection.open("127.0.0.1", server.port(), "")) {
            held.control(Op.INFO);
            try (Socket s = connect(server)) {
                send(s, "GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
                Response r = read(s.getInputStream(), false);
                assertThat(r.status()).isEqualTo(503);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("--max-connections");
                assertThat(s.getInputStream().read()).as("then closed").isEqualTo(-1);
            }
            try (XferConnection refused = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThatThrownBy(() -> refused.control(Op.INFO))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY));
            }
        }
    }

    /**
     * A HEAD over --max-connections hears 503 with Retry-After and nothing after the head (RFC 9110 §9.3.2: an answer
     * to HEAD never has content; it had the text body a GET gets), on every model: read until the server closes.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aHeadOverTheLimitHearsBusyWithoutABody(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(1));
             XferConnection held = XferConnection.open("127.0.0.1", server.port(), "")) {
            held.control(Op.INFO);
            String answer = answerToEnd(server, "HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n", false);
            assertNoBody(answer, 503);
            assertThat(answer).containsIgnoringCase("\r\nRetry-After: 1\r\n");
        }
    }

    /**
     * A refused client that goes quiet before its first bytes tell everything (four bytes of an HTTP method, or
     * nothing) hears BUSY as far as they tell within a moment, on every model, not at the idle timeout (30 s here).
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aQuietClientOverTheLimitIsAnsweredWithoutWaitingForTheIdleTimeout(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(1));
             XferConnection held = XferConnection.open("127.0.0.1", server.port(), "")) {
            held.control(Op.INFO);
            assertThat(answerToEnd(server, "GET ", false)).startsWith("HTTP/1.1 503 ");
            try (Socket s = connect(server)) {
                s.setSoTimeout(5_000);
                ReadableByteChannel answer = Channels.newChannel(new ByteArrayInputStream(s.getInputStream().readAllBytes()));
                assertThatThrownBy(() -> ResponseCodec.readOk(answer))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY));
            }
        }
    }

    /**
     * Every error answer to a HEAD has no body, on every model: the refusals of a parsed request (404, 403, 400 for an
     * unknown method) and the answers to a head that does not parse (400, 505, 431, one cut short by the client's FIN).
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void errorAnswersToAHeadHaveNoBody(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withToken("s3cret"))) {
            server.data().generated(10);
            String auth = "Authorization: Bearer s3cret\r\nConnection: close\r\n";
            assertNoBody(answerToEnd(server, "HEAD /nope.dat HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n", false), 404);
            assertNoBody(answerToEnd(server, "HEAD /xferbench-10.dat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", false), 403);
            assertNoBody(answerToEnd(server, "HEAD /xferbench-10.dat?method=warp HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n", false), 400);
            assertNoBody(answerToEnd(server, "HEAD /xferbench-10.dat HTTP/1.1\r\n" + auth + "\r\n", false), 400);
            assertNoBody(answerToEnd(server, "HEAD /xferbench-10.dat HTTP/2.0\r\nHost: x\r\n" + auth + "\r\n", false), 505);
            assertNoBody(answerToEnd(server, "HEAD /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", false), 431);
            assertNoBody(answerToEnd(server, "HEAD /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n", true), 400);
        }
    }

    /**
     * Request heads whose lines end in a bare LF, or mix LF and CRLF (RFC 9112 §2.2), are served on every model: a GET
     * gets its verified body, a HEAD its headers. A short read timeout fails the old behaviour, which waited for
     * "\r\n\r\n" until the idle timeout (30 s).
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void headsWithBareLineFeedsAreServed(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model)); Socket s = connect(server)) {
            s.setSoTimeout(5_000);
            TestFile file = server.data().generated(SIZE);
            String name = "/" + file.path().getFileName();
            for (String request : new String[] {
                "GET " + name + " HTTP/1.1\nHost: x\n\n",
                "GET " + name + " HTTP/1.1\r\nHost: x\r\n\n",
                "GET " + name + " HTTP/1.1\nHost: x\r\n\r\n",
            }) {
                send(s, request);
                Response r = read(s.getInputStream(), false);
                assertThat(r.status()).as(request).isEqualTo(200);
                assertThat(r.body()).as(request).hasSize(SIZE);
                assertThat(r.crc()).as(request).isEqualTo(file.crc32c());
            }
            send(s, "HEAD " + name + " HTTP/1.1\nHost: x\n\r\n");
            Response head = read(s.getInputStream(), true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers()).containsEntry("content-length", Integer.toString(SIZE));
            send(s, "HEAD " + name + " HTTP/1.1\nHost: x\nConnection: close\n\n");
            byte[] rest = s.getInputStream().readAllBytes();
            assertNoBody(new String(rest, StandardCharsets.ISO_8859_1), 200);
        }
    }

    /**
     * A head a peer could frame otherwise (whitespace before a Content-Length's or Transfer-Encoding's colon, a bare
     * CR that would end a line for it) is answered 400 and the connection closed, on every model: what follows it is
     * never read as a request. It was: the smuggled GET behind it was answered 200 after the first one's 200.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void headsAPeerCouldFrameOtherwiseAreRefusedAndWhatFollowsIsNeverServed(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            server.data().generated(10);
            String smuggled = "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            for (String framing : new String[] {
                "Content-Length\t: " + smuggled.length(),
                "Content-Length : " + smuggled.length(),
                "Transfer-Encoding\t: chunked",
                "X-A: a\rContent-Length: " + smuggled.length(),
                "X-A: a\rTransfer-Encoding: chunked",
            }) {
                String answer = answerToEnd(server, "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n" + framing + "\r\n\r\n" + smuggled, false);
                assertThat(answer).as(model + " " + framing).startsWith("HTTP/1.1 400 ").containsIgnoringCase("\r\nConnection: close\r\n");
                assertThat(answer.indexOf("HTTP/1.1 ", 1)).as(model + " " + framing + ": a second answer").isEqualTo(-1);
            }
        }
    }

    /** Everything the server sends to {@code request} on a new connection, until it closes; FIN after the request if {@code shutDown}. */
    private static String answerToEnd(XferServer server, String request, boolean shutDown) throws IOException {
        try (Socket s = connect(server)) {
            s.setSoTimeout(5_000);
            send(s, request);
            if (shutDown) {
                s.shutdownOutput();
            }
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** {@code answer} is a whole response with {@code status} and nothing after the blank line that ends its head. */
    private static void assertNoBody(String answer, int status) {
        assertThat(answer).startsWith("HTTP/1.1 " + status + " ");
        int end = answer.indexOf("\r\n\r\n");
        assertThat(end).as(answer).isPositive();
        assertThat(answer.substring(end + 4)).as("bytes after the head of a %d to a HEAD", status).isEmpty();
    }

    @Test
    void curlFetchesAFileByteExact() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            TestFile file = server.data().generated(SIZE);
            Path out = dataDir.resolve("curl.out");
            Process curl = new ProcessBuilder("curl", "-sS", "-D", "-", "-o", out.toString(),
                    "http://127.0.0.1:" + server.port() + "/" + file.path().getFileName()).redirectErrorStream(true).start();
            String headers = new String(curl.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(curl.exitValue()).as(headers).isZero();
            assertThat(headers).startsWith("HTTP/1.1 200").containsIgnoringCase(String.format("x-xferbench-crc32c: %08x", file.crc32c()));
            assertThat(Files.mismatch(out, file.path())).isEqualTo(-1);
        }
    }

    @Test
    void everyAvailableMethodServesAVerifiedBodyOnOneKeptAliveConnection() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir)); Socket s = connect(server)) {
            TestFile file = server.data().generated(SIZE);
            for (SenderMethod m : DownloadMethods.blocking()) {
                if (m.traits().tls()) {
                    // Over HTTP a TLS method would need HTTPS from the first byte: refused with the reason, the connection kept.
                    send(s, "GET /" + file.path().getFileName() + "?method=" + m.id() + " HTTP/1.1\r\nHost: x\r\n\r\n");
                    Response refused = read(s.getInputStream(), false);
                    assertThat(refused.status()).as(m.id()).isEqualTo(503);
                    assertThat(new String(refused.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("HTTPS on this port is not served yet");
                    continue;
                }
                MethodAssumptions.assumeAvailable(m.id(), m.availability());
                send(s, "GET /" + file.path().getFileName() + "?method=" + m.id() + " HTTP/1.1\r\nHost: x\r\n\r\n");
                Response r = read(s.getInputStream(), false);
                assertThat(r.status()).as(m.id()).isEqualTo(200);
                assertThat(r.headers()).containsEntry("x-xferbench-method", m.id());
                assertThat(r.body()).as(m.id()).hasSize(SIZE);
                assertThat(r.crc()).as(m.id()).isEqualTo(file.crc32c());
            }
            send(s, "HEAD /" + file.path().getFileName() + " HTTP/1.1\r\nHost: x\r\n\r\n");
            Response head = read(s.getInputStream(), true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers()).containsEntry("content-length", Integer.toString(SIZE));
        }
    }

    @Test
    void refusalsKeepTheConnectionAndCarryAReason() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir)); Socket s = connect(server)) {
            server.data().generated(10);
            send(s, "GET /nope.dat HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(read(s.getInputStream(), false).status()).isEqualTo(404);
            send(s, "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(read(s.getInputStream(), false).status()).isIn(403, 404);
            send(s, "DELETE /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n\r\n");
            Response del = read(s.getInputStream(), false);
            assertThat(del.status()).isEqualTo(405);
            assertThat(del.headers()).containsEntry("allow", "GET, HEAD");
            send(s, "GET /xferbench-10.dat?method=warp HTTP/1.1\r\nHost: x\r\n\r\n");
            Response unknown = read(s.getInputStream(), false);
            assertThat(unknown.status()).isEqualTo(400);
            assertThat(new String(unknown.body(), StandardCharsets.UTF_8)).contains("unknown download method");
            send(s, "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(read(s.getInputStream(), false).status()).isEqualTo(200);
            assertThat(dataDir.resolve("xferbench-10.dat")).exists();
        }
    }

    @Test
    void theTokenIsRequiredOverHttpToo() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withToken("s3cret")); Socket s = connect(server)) {
            server.data().generated(10);
            send(s, "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(read(s.getInputStream(), false).status()).isEqualTo(403);
            send(s, "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n\r\n");
            assertThat(read(s.getInputStream(), false).status()).isEqualTo(200);
        }
    }

    @Test
    void badHttpIsAnsweredThenClosedAndTheServerKeepsServing() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIdleTimeout(Duration.ofSeconds(1)))) {
            server.data().generated(10);
            String[] bad = {
                "GET / HTTP/1.1\r\n\r\n",                                              // no Host
                "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",         // oversized head
                "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n",     // pipelined garbage
                "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
            };
            int[] expected = {400, 431, 400, 505};
            for (int i = 0; i < bad.length; i++) {
                try (Socket s = connect(server)) {
                    send(s, bad[i]);
                    Response r = read(s.getInputStream(), false);
                    if (i == 2) {
                        assertThat(r.status()).isEqualTo(200);
                        r = read(s.getInputStream(), false);
                    }
                    assertThat(r.status()).as(bad[i].substring(0, Math.min(20, bad[i].length()))).isEqualTo(expected[i]);
                    assertThat(r.headers()).containsEntry("connection", "close");
                    assertThat(s.getInputStream().read()).isEqualTo(-1);
                }
            }
            // Slow headers: closed by the idle deadline, never held.
            try (Socket s = connect(server)) {
                send(s, "GET /xferbench-10.dat HTTP/1.1\r\nHo");
                long start = System.nanoTime();
                assertThat(s.getInputStream().read()).isEqualTo(-1);
                assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(25));
            }
            Random random = new Random(7);
            for (int i = 0; i < 300; i++) {
                try (Socket s = connect(server)) {
                    byte[] junk = new byte[random.nextInt(300)];
                    random.nextBytes(junk);
                    s.getOutputStream().write("GET ".getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().write(junk);
                    s.getOutputStream().write("\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    s.shutdownOutput();
                    Response r = read(s.getInputStream(), false);
                    if (r != null) {
                        assertThat(r.status()).isBetween(400, 505);
                    }
                } catch (java.net.SocketException reset) {
                    // A reset after the answer is a close too.
                }
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "fuzzed connections closed");
            try (Socket s = connect(server)) {
                send(s, "GET /xferbench-10.dat HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(read(s.getInputStream(), false).status()).isEqualTo(200);
            }
        }
    }
}
