package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server out of file descriptors (a real process under a low RLIMIT_NOFILE): clients it cannot accept are told
 * BUSY at once instead of waiting in the backlog, the log does not flood, and it serves again once descriptors free.
 */
@Timeout(120)
class FdExhaustionTest {
    private static final Pattern LISTENING = Pattern.compile("xferbench-server listening on (.+):(\\d+)");
    private static final int FD_LIMIT = 300;
    private static final int CLIENTS = 450;

    @TempDir
    Path dataDir;

    @Test
    void clientsBeyondTheDescriptorLimitAreToldBusyAndTheServerRecovers() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("prlimit", "--nofile=" + FD_LIMIT + ":" + FD_LIMIT,
                ProcessHandle.current().info().command().orElse("java"),
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ServerMain.class.getName(), "--data-dir", dataDir.toString(), "--port", "0", "--max-connections", "2000"));
        Process server = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> log = new CopyOnWriteArrayList<>();
        List<SocketChannel> clients = new ArrayList<>();
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
            assertThat(port).isPositive();
            Thread drain = new Thread(() -> out.lines().forEach(log::add), "server-log");
            drain.setDaemon(true);
            drain.start();
            // Hold many idle connections: each one the server accepts keeps a descriptor (and a thread waiting for a request).
            for (int i = 0; i < CLIENTS; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                c.configureBlocking(false);
                clients.add(c);
            }
            int busy = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            List<SocketChannel> waiting = new ArrayList<>(clients);
            while (System.nanoTime() < deadline && busy < CLIENTS - FD_LIMIT) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    SocketChannel c = it.next();
                    ByteBuffer b = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES);
                    int n = c.read(b);
                    if (n > 0 && b.get(4) == Status.BUSY.code()) {
                        busy++;
                        it.remove();
                    } else if (n < 0) {
                        it.remove();
                    }
                }
                Thread.sleep(50);
            }
            assertThat(busy).as("clients beyond the descriptor limit told BUSY").isGreaterThanOrEqualTo(CLIENTS - FD_LIMIT);
            long acceptFailures = log.stream().filter(l -> l.contains("accept failed")).count();
            assertThat(acceptFailures).as("accept failures logged (rate-limited): %s", log).isLessThanOrEqualTo(4);

            for (SocketChannel c : clients) {
                c.close();
            }
            clients.clear();
            int p = port;
            MalformedRequestStormTest.waitUntil(() -> {
                try (XferConnection c = XferConnection.open("127.0.0.1", p, "")) {
                    return c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified();
                } catch (Exception notYet) {
                    return false;
                }
            }, "served again after the descriptors were freed");
        } finally {
            for (SocketChannel c : clients) {
                c.close();
            }
            server.destroyForcibly().waitFor();
        }
    }
}
