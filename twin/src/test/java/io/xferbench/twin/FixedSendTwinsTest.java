package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.DataInputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The liburing twins of uring-fixed-send and uring-fixed-send-zc ({@code xfer_uring_twin}, the mode the registry names)
 * send the file's bytes in order: odd sizes, a last chunk shorter than the buffer, more chunks than buffers.
 */
@Timeout(120)
class FixedSendTwinsTest {
    private static final int BUFFER = 65_539;
    private static final int DEPTH = 3;

    @TempDir
    static Path dir;

    @ParameterizedTest(name = "{0} {1} bytes")
    @CsvSource({"uring-fixed-send,1", "uring-fixed-send,65539", "uring-fixed-send,1000003",
            "uring-fixed-send-zc,1", "uring-fixed-send-zc,65540", "uring-fixed-send-zc,1000003"})
    void theCTwinSendsTheFileByteForByte(String methodId, int size) throws Exception {
        SenderMethod method = DownloadMethods.byId(methodId).orElseThrow();
        MethodAssumptions.assumeAvailable(methodId, method.availability());
        Path twin = TwinBinaries.built(dir, "xfer_uring_twin.c", "xfer_uring_twin", "-luring");
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        Path source = Files.write(dir.resolve(methodId + "-" + size + ".bin"), bytes);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            String mode = method.traits().twinMode();
            Process p = new ProcessBuilder(twin.toString(), mode, source.toString(), "127.0.0.1",
                    Integer.toString(server.getLocalPort()), Integer.toString(BUFFER), Integer.toString(size),
                    Integer.toString(DEPTH)).redirectErrorStream(true).start();
            try (Socket s = server.accept(); DataInputStream in = new DataInputStream(s.getInputStream())) {
                assertThat(in.readLong()).isEqualTo(size);
                byte[] body = in.readAllBytes();
                assertThat(body.length).isEqualTo(size);
                assertThat(Arrays.mismatch(body, bytes)).as("first differing byte").isEqualTo(-1);
            } finally {
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(List.of(out.split("\\s+"))).contains("mode=" + mode, "bytes=" + size);
        }
    }
}
