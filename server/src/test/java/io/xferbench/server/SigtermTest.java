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
import io.xferbench.core.testing.TempFileNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real thing: a server process gets SIGTERM while a transfer is in flight. */
class SigtermTest {

    @TempDir
    Path dataDir;

    @Test
    void sigtermLetsTheInFlightTransferFinishThenExitsCleanly() throws Exception {
        try (ServerProcess started = ServerProcess.start(dataDir, "--shutdown-grace", "60")) {
            Process server = started.process;
            int port = started.port;
            ExecutorService receiver = Executors.newSingleThreadExecutor();

            long size = 64 * Sizes.MiB;
            XferConnection busy = XferConnection.open("127.0.0.1", port, "");
            busy.channel().socket().setReceiveBufferSize(32 * 1024);
            // Request and read the header by hand: SIGTERM must come while the body is in flight.
            Frames.writeFully(busy.channel(), RequestCodec.encode(Request.download("channel-direct", size, Flags.VERIFY_CRC32C, 0)));
            DownloadHeader header = ResponseCodec.readDownloadHeader(busy.channel());
            server.destroy(); // SIGTERM
            // The body is read only once shutdown has begun: in flight at SIGTERM whatever the machine's pace.
            StallAndShutdownTest.awaitRefused(port);
            CompletableFuture<Integer> body = CompletableFuture.supplyAsync(() -> {
                try {
                    int crc = new BodyReceiver().receive(busy.channel(), header.length(), true);
                    ResponseCodec.readTrailer(busy.channel());
                    return crc;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, receiver);

            assertThat(body.get(60, TimeUnit.SECONDS)).as("in-flight download finished, CRC32C as promised").isEqualTo(header.crc32c());
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server exited").isTrue();
            assertThat(server.exitValue()).as("exit status after SIGTERM").isIn(0, 143);
            busy.close();
            receiver.shutdown();
            assertThat(TempFileNames.in(dataDir)).isEmpty();
        }
    }
}
