package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Buffer memory is bounded per connection and per server, and running out of it is answered, not a silent close. */
@Timeout(120)
class BufferMemoryTest {
    private static final Pattern LISTENING = Pattern.compile("xferbench-server listening on (.+):(\\d+)");
    private static final int MiB = 1 << 20;

    @TempDir
    Path dataDir;

    @Test
    void oneConnectionCyclingThroughBufferSizesHoldsABoundedAmount() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (int i = 0; i < 24; i++) {
                int buffer = 64 * MiB - i * 4096;
                assertThat(c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, buffer)).verified()).isTrue();
                assertThat(server.reservedBufferBytes()).isLessThanOrEqualTo((long) PerConnection.MAX_INSTANCES * 64 * MiB);
            }
        }
    }

    @Test
    void aRequestPastTheServersBudgetIsBusyAndTheConnectionGoesOn() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxBufferMemory(100L * MiB));
             XferConnection a = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection b = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThat(a.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 60 * MiB)).verified()).isTrue();
            assertThatThrownBy(() -> b.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 60 * MiB)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                    .hasMessageContaining("--max-buffer-memory");
            assertThat(b.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    /** A real OutOfMemoryError (direct memory capped below one buffer) reaches the client as an error frame. */
    @Test
    void anOutOfMemoryErrorIsAnsweredAndTheServerKeepsServing() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:MaxDirectMemorySize=32m",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ServerMain.class.getName(), "--data-dir", dataDir.toString(), "--port", "0"));
        Process server = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            int port = -1;
            for (String line; (line = out.readLine()) != null; ) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(2));
                    break;
                }
            }
            Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "server-log");
            drain.setDaemon(true);
            drain.start();
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                assertThatThrownBy(() -> c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 48 * MiB)))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.SERVER_ERROR))
                        .hasMessageContaining("OutOfMemoryError");
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                assertThat(c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        } finally {
            server.destroyForcibly().waitFor();
        }
    }
}
