package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real thing: a server process gets SIGTERM while a transfer is in flight. */
class SigtermTest {
    private static final Pattern LISTENING = Pattern.compile("xferbench-server listening on (.+):(\\d+)");

    @TempDir
    Path dataDir;

    @Test
    void sigtermLetsTheInFlightTransferFinishThenExitsCleanly() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ServerMain.class.getName(), "--data-dir", dataDir.toString(), "--port", "0", "--shutdown-grace", "60"));
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
            assertThat(port).as("server announced its port").isPositive();
            // Its own threads, not the common pool: on 2 cores that pool has one thread, which the drain would keep.
            Thread drain = new Thread(() -> out.lines().forEach(l -> System.out.println("server: " + l)), "server-log");
            drain.setDaemon(true);
            drain.start();
            ExecutorService receiver = Executors.newSingleThreadExecutor();

            long size = 64 * Sizes.MiB;
            XferConnection busy = XferConnection.open("127.0.0.1", port, "");
            busy.channel().socket().setReceiveBufferSize(32 * 1024);
            // Request and read the header by hand: SIGTERM must come while the body is in flight.
            Frames.writeFully(busy.channel(), RequestCodec.encode(Request.download("channel-direct", size, Flags.VERIFY_CRC32C, 0)));
            DownloadHeader header = ResponseCodec.readDownloadHeader(busy.channel());
            CompletableFuture<Integer> body = CompletableFuture.supplyAsync(() -> {
                try {
                    int crc = new BodyReceiver().receive(busy.channel(), header.length(), true);
                    ResponseCodec.readTrailer(busy.channel());
                    return crc;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, receiver);

            server.destroy(); // SIGTERM

            assertThat(body.get(60, TimeUnit.SECONDS)).as("in-flight download finished, CRC32C as promised").isEqualTo(header.crc32c());
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server exited").isTrue();
            assertThat(server.exitValue()).as("exit status after SIGTERM").isIn(0, 143);
            busy.close();
            receiver.shutdown();
            try (Stream<Path> files = Files.list(dataDir)) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".tmp-"));
            }
        } finally {
            server.destroyForcibly();
        }
    }
}
