package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.InternalFaultProbe;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A quick open on the loop (an open-on-loop model's, or the adoption of what netty-io-uring's ring opened), before the
 * pool's full open, failing for a reason of the server's own: answered as an internal error (SERVER_ERROR, 500) and
 * logged, not retried on the pool as a file the quick way cannot open is. The old code swallowed the RuntimeException
 * and served the file from the pool.
 */
@Timeout(120)
class QuickOpenFailureTest {
    private static final String FILE = "quick.dat";

    @TempDir
    Path dataDir;

    @AfterEach
    void noHook() {
        InternalFaultProbe.hook = null;
    }

    /** The file work fails once, with {@code token}: the first try, which on these models is the loop's quick open. */
    private static void failFirstOpen(String token) {
        AtomicBoolean failed = new AtomicBoolean();
        InternalFaultProbe.hook = (point, name) -> {
            if (point == InternalFaultProbe.Point.FILE_WORK && name.equals(FILE) && failed.compareAndSet(false, true)) {
                throw new IllegalStateException(token);
            }
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty-epoll-inline", "netty-io-uring-inline", "netty-io-uring"})
    void aBugInTheQuickOpenIsAnInternalErrorNotARetry(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Files.write(dataDir.resolve(FILE), new byte[4096]);
        try (CapturedLog log = CapturedLog.of("io.xferbench.server", Level.FINE);
             XferServer server = ProbedSeams.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            String token = "quick-native-" + model;
            failFirstOpen(token);
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "", Duration.ofSeconds(30))) {
                Request download = new Request(Op.DOWNLOAD, "transfer-to", FILE, "", 0, 0, Flags.VERIFY_CRC32C, 0);
                assertThatThrownBy(() -> c.download(download)).as(model + " native")
                        .isInstanceOfSatisfying(RemoteException.class, e -> {
                            assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                            assertThat(e.getMessage()).contains(token);
                        });
            }
            String httpToken = "quick-http-" + model;
            failFirstOpen(httpToken);
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", server.port()));
                s.setSoTimeout(30_000);
                s.getOutputStream().write(("GET /" + FILE + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                InputStream in = s.getInputStream();
                HttpServingTest.Response r = HttpServingTest.read(in, false);
                assertThat(r).as(model + " HTTP").isNotNull();
                assertThat(r.status()).as(model + " HTTP").isEqualTo(500);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains(httpToken);
            }
            for (String t : new String[] {token, httpToken}) {
                assertThat(log.messages()).as(model + ": logged as an internal error")
                        .anyMatch(m -> m.contains(t) && m.contains("internal error serving"));
            }
        }
    }
}
