package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.socket.ChannelOutputShutdownException;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.InternalErrors;
import io.xferbench.server.fault.InternalFaultProbe;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.NotYetConnectedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request whose handling fails for a reason of the server's own (a RuntimeException, an Error such as a class that
 * fails to load) at its file work, its answer's first write, or inside its body, over the native protocol and HTTP, on
 * every I/O model: the client hears SERVER_ERROR or 500 while nothing of the answer was sent, else the connection
 * closes; the log names the model, the client, the request and the exception; the slot is given back and the server
 * serves the next client. The event-loop models closed such connections with a FINE line, or left them to the
 * transfer deadline; the thread models answered an HTTP client with a native frame.
 */
@Timeout(300)
class InternalErrorEveryModelTest {
    private static final String BOOM = "boom.dat";
    private static final String UPLOADED = "boom-up.dat";
    private static final int SIZE = 256 * 1024;

    @TempDir
    Path dataDir;

    @TempDir
    Path bodiesDir;

    private CapturedLog log;

    @BeforeEach
    void listen() {
        log = CapturedLog.of("io.xferbench.server", Level.FINE);
    }

    @AfterEach
    void stopListening() {
        InternalFaultProbe.hook = null;
        log.close();
    }

    /** The bytes of ok.dat (and of the file that fails), the same in every case. */
    private static byte[] content() {
        byte[] content = new byte[SIZE];
        new java.util.Random(7).nextBytes(content);
        return content;
    }

    /** The file that fails and the one served next, with the same bytes: returned. */
    private byte[] writeFiles() throws IOException {
        byte[] content = content();
        Files.write(dataDir.resolve(BOOM), content);
        Files.write(dataDir.resolve("ok.dat"), content);
        return content;
    }

    /** A server of {@code model} with two slots (a slot not given back shows at once) and a short idle timeout. */
    private XferServer start(String model) throws IOException {
        return ProbedSeams.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(2)
                .withIdleTimeout(Duration.ofSeconds(5)));
    }

    static List<String> models() {
        return IoModelTest.everyModel().toList();
    }

    private static final List<Function<String, Throwable>> KINDS = List.of(
            IllegalArgumentException::new, IllegalStateException::new, NoClassDefFoundError::new);

    @ParameterizedTest
    @MethodSource("models")
    void anInternalErrorIsAnsweredWhereItCanBeLoggedAndTheServerGoesOn(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        byte[] content = writeFiles();
        int round = 0;
        List<String> failures = new java.util.ArrayList<>();
        long baseline = -1;
        try (XferServer server = start(model)) {
            // Twice: the first pass loads what serving every case opens once (jars of classes first used), the second
            // must leave no descriptor more than the first.
            for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                awaitNoConnections(server, model + ": after the first pass");
                baseline = awaitDescriptorsAtMost(Long.MAX_VALUE);
            }
            for (InternalFaultProbe.Point point : List.of(InternalFaultProbe.Point.FILE_WORK, InternalFaultProbe.Point.ANSWER,
                    InternalFaultProbe.Point.BODY)) {
                for (Function<String, Throwable> kind : KINDS) {
                    for (boolean http : new boolean[] {false, true}) {
                        String token = "injected-" + model + "-" + (round++);
                        Throwable thrown = kind.apply(token);
                        String what = model + " " + point + " " + thrown.getClass().getSimpleName() + (http ? " HTTP" : " native");
                        failOnce(server, point, point, thrown, http, token, what, content, failures);
                        try {
                            assertLogged(model, http ? "GET /" + BOOM : "DOWNLOAD " + BOOM, token, what);
                        } catch (AssertionError e) {
                            failures.add("log: " + e.getMessage());
                        }
                        servesTheNextClient(server, content, what);
                    }
                }
            }
            }
            // Files of failed answers closed, sockets gone: 18 more failures, no descriptor more.
            assertThat(awaitDescriptorsAtMost(baseline)).as(model + ": descriptors").isLessThanOrEqualTo(baseline);
        }
        assertThat(failures).isEmpty();
    }

    /** This JVM's open descriptors once they are at most {@code limit}, or after 5 s (closes take a moment). */
    private static long awaitDescriptorsAtMost(long limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long n = openDescriptors();
        while (n > limit && System.nanoTime() < deadline) {
            Thread.sleep(20);
            n = openDescriptors();
        }
        return n;
    }

    /** This JVM's open descriptors (the server runs in it). */
    private static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @ParameterizedTest
    @MethodSource("models")
    void anInternalErrorAtAnUploadsEndIsAnsweredLoggedAndStoresNothing(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        byte[] content = content();
        Files.write(dataDir.resolve("ok.dat"), content);
        List<String> failures = new java.util.ArrayList<>();
        int round = 0;
        try (XferServer server = start(model)) {
            // Sizes for both event-loop paths: a body that arrives whole behind its header, and one in several chunks.
            for (int size : new int[] {0, 3_000, 2 << 20}) {
                var body = new io.xferbench.core.data.DataDirectory(bodiesDir).generated(size);
                for (Function<String, Throwable> kind : KINDS) {
                    String token = "injected-upload-" + model + "-" + (round++);
                    Throwable thrown = kind.apply(token);
                    InternalFaultProbe.hook = (p, name) -> {
                        if (p == InternalFaultProbe.Point.UPLOAD_END && name.equals(UPLOADED)) {
                            throw sneaky(thrown);
                        }
                    };
                    String what = model + " UPLOAD_END " + size + " bytes " + thrown.getClass().getSimpleName();
                    awaitNoConnections(server, what);
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "", Duration.ofSeconds(60))) {
                        assertThatThrownBy(() -> c.upload(Request.upload("stream", UPLOADED, 0, 0, Flags.VERIFY_CRC32C, 0), body))
                                .as(what).isInstanceOfSatisfying(RemoteException.class, e -> {
                                    assertThat(e.status()).as(what).isEqualTo(Status.SERVER_ERROR);
                                    assertThat(e.getMessage()).as(what).contains(token).doesNotContain("\n");
                                });
                    } catch (AssertionError e) {
                        failures.add("answer: " + what + ": " + e.toString().lines().findFirst().orElse(""));
                    }
                    InternalFaultProbe.hook = null;
                    try {
                        assertLogged(model, "UPLOAD " + UPLOADED, token, what);
                    } catch (AssertionError e) {
                        failures.add("log: " + e.getMessage());
                    }
                    // Nothing stored, and the temp file gone before the answer.
                    assertThat(dataDir.resolve(UPLOADED)).as(what).doesNotExist();
                    try (var left = Files.list(dataDir.resolve(".uploads"))) {
                        assertThat(left.toList()).as(what + ": temp files").isEmpty();
                    } catch (java.nio.file.NoSuchFileException none) {
                        // No upload made the temp directory: nothing left either.
                    }
                    servesTheNextClient(server, content, what);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("models")
    void anInternalErrorWhileParsingARequestIsAnsweredInItsProtocolAndLogged(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        byte[] content = content();
        Files.write(dataDir.resolve("ok.dat"), content);
        List<String> failures = new java.util.ArrayList<>();
        int round = 0;
        try (XferServer server = start(model)) {
            for (Function<String, Throwable> kind : KINDS) {
                for (boolean http : new boolean[] {false, true}) {
                    String token = "injected-parse-" + model + "-" + (round++);
                    Throwable thrown = kind.apply(token);
                    String what = model + " PARSE " + thrown.getClass().getSimpleName() + (http ? " HTTP" : " native");
                    awaitNoConnections(server, what);
                    // The failing request is the only one made while the hook is set.
                    InternalFaultProbe.hook = (p, name) -> {
                        if (p == InternalFaultProbe.Point.PARSE) {
                            throw sneaky(thrown);
                        }
                    };
                    try {
                        if (http) {
                            httpFails(server, "ok.dat", InternalFaultProbe.Point.PARSE, token, what, content);
                        } else {
                            nativeFails(server, "ok.dat", InternalFaultProbe.Point.PARSE, token, what);
                        }
                    } catch (AssertionError | IOException e) {
                        failures.add("answer: " + what + ": " + e.toString().lines().findFirst().orElse(""));
                    }
                    InternalFaultProbe.hook = null;
                    try {
                        assertLogged(model, InternalErrors.NOT_DECODED, token, what);
                    } catch (AssertionError e) {
                        failures.add("log: " + e.getMessage());
                    }
                    servesTheNextClient(server, content, what);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /** What a failed body write's future or a sender may carry, and whether it is the server's own failure. */
    private record WriteKind(Function<String, Throwable> make, boolean internal) {
    }

    private static final List<WriteKind> WRITE_KINDS = List.of(
            new WriteKind(IllegalStateException::new, true),
            // As Netty fails the writes of a channel whose flush threw: wrapped in an IOException.
            new WriteKind(t -> new ChannelOutputShutdownException("Channel output shutdown", new IllegalStateException(t)), true),
            new WriteKind(IOException::new, false),
            // ENOTCONN, as Netty reports it: the socket's state, not a bug.
            new WriteKind(t -> new ChannelOutputShutdownException(t, new NotYetConnectedException()), false));

    /**
     * A body's write failing past the head: a failure of the server's own is an internal error (stack trace and all),
     * a socket's is one INFO line saying the body was cut short; both name the model, the client and the request.
     * The event loops hear of both through the write's future (they logged either at INFO, without client or
     * request); the thread models' write throws.
     */
    @ParameterizedTest
    @MethodSource("models")
    void aFailedBodyWriteIsToldApartFromTheSocketsAndNamesTheRequest(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        byte[] content = writeFiles();
        InternalFaultProbe.Point point = model.startsWith("netty-") ? InternalFaultProbe.Point.BODY_WRITE
                : InternalFaultProbe.Point.BODY;
        List<String> failures = new java.util.ArrayList<>();
        int round = 0;
        try (XferServer server = start(model)) {
            for (WriteKind kind : WRITE_KINDS) {
                boolean internal = kind.internal();
                for (boolean http : new boolean[] {false, true}) {
                    String token = "injected-" + model + "-" + (round++);
                    Throwable thrown = kind.make().apply(token);
                    String what = model + " " + point + " " + thrown.getClass().getSimpleName() + (http ? " HTTP" : " native");
                    // Past the head, as at BODY: the client sees the body cut short.
                    failOnce(server, point, InternalFaultProbe.Point.BODY, thrown, http, token, what, content, failures);
                    String request = http ? "GET /" + BOOM : "DOWNLOAD " + BOOM;
                    try {
                        assertLogged(model, request, token, what);
                        String said = internal ? "internal error serving " : "cut short after the head was sent";
                        assertThat(log.messages()).as(what).anyMatch(m -> m.contains(token) && m.contains(said));
                        if (!internal) {
                            assertThat(log.messages()).as(what + ": a socket's failure is not an internal error")
                                    .noneMatch(m -> m.contains(token) && m.contains("internal error"));
                        }
                    } catch (AssertionError e) {
                        failures.add("log: " + e.getMessage().lines().findFirst().orElse(""));
                    }
                    servesTheNextClient(server, content, what);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /**
     * Makes the download of BOOM fail once at {@code point} with {@code thrown}, over HTTP or the native protocol, and
     * lists how the client's answer differs from what a failure at {@code answeredAs} gives. Every case is tried and
     * every failure listed: which points, kinds and protocols differ.
     */
    private static void failOnce(XferServer server, InternalFaultProbe.Point point, InternalFaultProbe.Point answeredAs,
            Throwable thrown, boolean http, String token, String what, byte[] content, List<String> failures)
            throws InterruptedException {
        // The last case's clients gone first, so this one is not refused BUSY for want of a slot.
        awaitNoConnections(server, what);
        InternalFaultProbe.hook = (p, name) -> {
            if (p == point && name.equals(BOOM)) {
                throw sneaky(thrown);
            }
        };
        try {
            if (http) {
                httpFails(server, BOOM, answeredAs, token, what, content);
            } else {
                nativeFails(server, BOOM, answeredAs, token, what);
            }
        } catch (AssertionError | IOException e) {
            failures.add("answer: " + what + ": " + e.toString().lines().findFirst().orElse(""));
        } finally {
            InternalFaultProbe.hook = null;
        }
    }

    private static void nativeFails(XferServer server, String file, InternalFaultProbe.Point point, String token, String what)
            throws IOException {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "", Duration.ofSeconds(60))) {
            Request download = new Request(Op.DOWNLOAD, "transfer-to", file, "", 0, 0, Flags.VERIFY_CRC32C, 0);
            if (point == InternalFaultProbe.Point.BODY) {
                // Past the header the stream cannot carry an error frame: the client sees the connection end.
                assertThatThrownBy(() -> c.download(download)).as(what).isInstanceOf(IOException.class)
                        .isNotInstanceOf(RemoteException.class);
                return;
            }
            assertThatThrownBy(() -> c.download(download)).as(what).isInstanceOfSatisfying(RemoteException.class, e -> {
                assertThat(e.status()).as(what).isEqualTo(Status.SERVER_ERROR);
                assertThat(e.getMessage()).as(what).contains(token).doesNotContain("\n");
            });
        }
    }

    private static void httpFails(XferServer server, String file, InternalFaultProbe.Point point, String token, String what,
            byte[] content)
            throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            s.setSoTimeout(60_000);
            s.getOutputStream().write(("GET /" + file + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            HttpServingTest.Response r = HttpServingTest.read(in, false);
            if (point == InternalFaultProbe.Point.BODY) {
                // The head may have gone out: then the body is cut short, which is all HTTP/1.1 has to say so.
                if (r != null) {
                    assertThat(r.status()).as(what).isEqualTo(200);
                    assertThat(r.body().length).as(what).isLessThan(SIZE);
                    // Cut short, and nothing but the file's bytes: no error answer written into the body.
                    assertThat(r.body()).as(what).isEqualTo(java.util.Arrays.copyOf(content, r.body().length));
                }
                return;
            }
            assertThat(r).as(what).isNotNull();
            assertThat(r.status()).as(what).isEqualTo(500);
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertThat(body).as(what).contains(token);
            assertThat(r.headers().get("connection")).as(what).isEqualTo("close");
            assertThat(in.read()).as(what + ": closed after the 500").isEqualTo(-1);
        }
    }

    private void assertLogged(String model, String request, String token, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline) {
            for (LogRecord r : log.records()) {
                String m = r.getMessage();
                if (m != null && m.contains(token) && m.contains(model + " ") && m.contains("127.0.0.1")
                        && m.contains(request)) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError(what + ": no log line naming the model, the client, '" + request + "' and " + token
                + "; logged: " + log.messages());
    }

    private static void servesTheNextClient(XferServer server, byte[] content, String what) throws Exception {
        // The failed connection's slot is given back: with --max-connections 2, two clients at once are served. The
        // slot comes back as the connection's thread (or loop) finishes with it, a moment after the count drops: BUSY
        // is retried for a while, a slot never given back fails.
        awaitNoConnections(server, what);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (XferConnection a = XferConnection.open("127.0.0.1", server.port(), "");
                 XferConnection b = XferConnection.open("127.0.0.1", server.port(), "")) {
                for (XferConnection c : List.of(a, b)) {
                    var d = c.download(new Request(Op.DOWNLOAD, "transfer-to", "ok.dat", "", 0, 0, Flags.VERIFY_CRC32C, 0));
                    assertThat(d.verified()).as(what).isTrue();
                    assertThat(d.bytes()).isEqualTo(content.length);
                }
                return;
            } catch (io.xferbench.core.protocol.RemoteException busy) {
                if (!busy.getMessage().startsWith("BUSY") || System.nanoTime() > deadline) {
                    throw busy;
                }
                Thread.sleep(20);
            }
        }
    }

    /** Closed connections leave the server's count once it has seen their close, which takes a moment. */
    private static void awaitNoConnections(XferServer server, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.openConnections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.openConnections()).as(what + ": connections still open").isZero();
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
