package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StallAndShutdownTest {
    @TempDir
    Path dataDir;

    @Test
    void slowlorisClientsAreDroppedAfterTheIdleTimeoutWhileOthersAreServed() throws Exception {
        ServerConfig config = ServerConfig.loopback(dataDir).withIdleTimeout(Duration.ofSeconds(1)).withMaxConnections(300);
        try (XferServer server = XferServer.start(config)) {
            List<SocketChannel> stalled = new ArrayList<>();
            ByteBuffer full = RequestCodec.encode(Request.download("stream", 10, 0, 0));
            for (int i = 0; i < 200; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
                ch.write(full.duplicate().limit(i % (full.limit() - 1) + 1)); // half a header, then nothing
                stalled.add(ch);
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("stream", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "stalled connections dropped");
            for (SocketChannel ch : stalled) {
                ByteBuffer b = ByteBuffer.allocate(256);
                int n;
                try {
                    n = ch.read(b);
                } catch (IOException reset) {
                    n = -1;
                }
                assertThat(n).as("server closed the stalled connection").isEqualTo(-1);
                ch.close();
            }
        }
    }

    @Test
    void shutdownLetsInFlightTransfersFinishAndClosesIdleConnectionsAtOnce() throws Exception {
        XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withShutdownGrace(Duration.ofSeconds(30)));
        long size = 64 * Sizes.MiB;
        server.data().generated(size);
        XferConnection idle = XferConnection.open("127.0.0.1", server.port(), "");
        idle.control(Op.INFO);
        XferConnection busy = XferConnection.open("127.0.0.1", server.port(), "");
        // A slow reader: the transfer is in flight when shutdown starts.
        busy.channel().socket().setReceiveBufferSize(64 * 1024);
        CompletableFuture<DownloadResult> inFlight = CompletableFuture.supplyAsync(() -> {
            try {
                return busy.download(Request.download("channel-direct", size, Flags.VERIFY_CRC32C | Flags.CACHE_WARM, 0));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        // In flight = the server holds the transfer's buffer: two open connections alone do not say the request was read,
        // and a connection still waiting for its request is idle, which shutdown closes at once (seen under load).
        MalformedRequestStormTest.waitUntil(() -> server.reservedBufferBytes() > 0 && !inFlight.isDone(), "transfer in flight");

        server.close();

        assertThat(inFlight.get(30, TimeUnit.SECONDS).verified()).as("in-flight transfer completed").isTrue();
        assertThatThrownBy(() -> idle.control(Op.INFO)).as("idle connection was closed").isInstanceOf(IOException.class);
        assertThatThrownBy(() -> XferConnection.open("127.0.0.1", server.port(), "")).isInstanceOf(Exception.class);
        idle.close();
        busy.close();
    }
}
