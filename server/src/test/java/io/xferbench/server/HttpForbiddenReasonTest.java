package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.Availability;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.MethodAssumptions;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A 403 says why. A name through a directory the server may not search is refused by the JDK itself (EACCES), which
 * gives no reason: the HTTP answer said "/locked/f: null" where the native one said "permission denied". On every
 * model, with the server in a process of its own that cannot override file permissions (root's
 * CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped: the tests run as root).
 */
@Timeout(180)
class HttpForbiddenReasonTest {
    /** What root runs the server under so that a directory of mode 000 stops it. */
    private static final List<String> WITHOUT_PERMISSION_OVERRIDE = List.of("setpriv",
            "--bounding-set", "-dac_override,-dac_read_search", "--inh-caps", "-dac_override,-dac_read_search");

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aPermissionDeniedWithoutAReasonFromTheJdkIsToldAsSuch(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        Path locked = Files.createDirectories(dataDir.resolve("locked"));
        Files.writeString(locked.resolve("f"), "out of reach");
        Files.setPosixFilePermissions(locked, Set.of());
        try {
            List<String> wrapper = unprivileged();
            assumeDenied(wrapper, locked.resolve("f"));
            try (ServerProcess server = ServerProcess.start(wrapper, List.of(), dataDir, "--io-model", model)) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", server.port));
                    s.setSoTimeout(30_000);
                    s.getOutputStream().write("GET /locked/f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
                    HttpServingTest.Response r = HttpServingTest.read(s.getInputStream(), false);
                    String text = new String(r.body(), StandardCharsets.UTF_8);
                    assertThat(r.status()).as(text).isEqualTo(403);
                    assertThat(text).isEqualTo("/locked/f: permission denied\n");
                }
                // The native protocol says the same.
                try (XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
                    Request download = new Request(Op.DOWNLOAD, "transfer-to", "locked/f", "", 0, 0, Flags.VERIFY_CRC32C, 0);
                    assertThatThrownBy(() -> c.download(download)).isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.FORBIDDEN);
                        assertThat(e.reason()).isEqualTo("locked/f: permission denied");
                    });
                }
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** Root gives up overriding file permissions; another user never had it. */
    private static List<String> unprivileged() throws Exception {
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return uid == 0 ? WITHOUT_PERMISSION_OVERRIDE : List.of();
    }

    /** Skips (or, in CI, fails) where a process run under {@code wrapper} could still read {@code file}. */
    private static void assumeDenied(List<String> wrapper, Path file) throws Exception {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of("cat", file.toString()));
        String out;
        boolean denied;
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            denied = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() != 0 && out.contains("Permission denied");
        } catch (java.io.IOException e) {
            out = e.getMessage();
            denied = false;
        }
        MethodAssumptions.assumeAvailable("a server that meets EACCES", denied ? Availability.AVAILABLE
                : Availability.unavailable("a process here reads a file in a directory of mode 000 (" + cmd + "): " + out));
    }
}
