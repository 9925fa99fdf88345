package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.testing.ProcessResources;
import io.xferbench.server.config.ServerConfig;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1,000 clients that vanish mid-transfer (RST after the first bytes): 500 downloads and 500 uploads, spread
 * over every available method of each direction. Afterwards the server holds nothing extra: fds (sockets,
 * pipes, files), threads, mappings, direct buffers; and the data directory is unchanged (no temp or partial
 * files).
 */
class AbortedTransferTest {
    static final int ABORTS = 1000;
    static final long SIZE = 4 * Sizes.MiB;

    @TempDir
    Path dataDir;

    @Test
    void abortedDownloadsLeakNothing() throws Exception {
        // TLS methods need the client's TLS session: TlsDownloadTest and ModelRunsMethodAskedTest serve them.
        List<SenderMethod> methods = DownloadMethods.blocking().stream().filter(m -> m.availability().isAvailable())
                .filter(m -> !m.traits().tls()).toList();
        List<ReceiverMethod> receivers = UploadMethods.all().stream().filter(m -> m.availability().isAvailable()).toList();
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            // Warm every method once so lazily created, long-lived things (event loops, JNA, classes) exist in the baseline.
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                for (SenderMethod m : methods) {
                    assertThat(c.download(Request.download(m.id(), SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                }
                TestFile body = server.data().generated(SIZE);
                for (ReceiverMethod m : receivers) {
                    assertThat(c.upload(upload(m.id(), "warm-" + m.id(), body.crc32c()), body).verified()).isTrue();
                }
            }
            ProcessResources before = settled(server);
            List<String> filesBefore = listing();

            int crc = server.data().generated(SIZE).crc32c();
            for (int i = 0; i < ABORTS; i++) {
                if (i % 2 == 0) {
                    abortDownload(server.port(), methods.get(i / 2 % methods.size()).id());
                } else {
                    abortUpload(server.port(), upload(receivers.get(i / 2 % receivers.size()).id(), "aborted-" + (i % 7), crc));
                }
            }

            ProcessResources after = settled(server);
            assertThat(after.sockets()).as("sockets").isLessThanOrEqualTo(before.sockets());
            assertThat(after.pipes()).as("pipes").isLessThanOrEqualTo(before.pipes());
            assertThat(after.fds()).as("fds").isLessThanOrEqualTo(before.fds());
            assertThat(after.threads()).as("threads").isLessThanOrEqualTo(before.threads());
            // The JIT and GC may map a little more over time; a leak of one mapping per abort would be 1,000.
            assertThat(after.mappings()).as("mappings").isLessThan(before.mappings() + 50);
            assertThat(after.directBuffers()).as("direct buffers").isLessThan(before.directBuffers() + 20);
            assertThat(listing()).isEqualTo(filesBefore);

            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("stream", SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }

    /** Requests a download, reads the header and some body, then resets the connection. */
    private static void abortDownload(int port, String method) throws Exception {
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ch.setOption(StandardSocketOptions.SO_LINGER, 0);
            Frames.writeFully(ch, RequestCodec.encode(Request.download(method, SIZE, 0, 0)));
            ByteBuffer some = ByteBuffer.allocate(64 * 1024);
            while (some.hasRemaining() && ch.read(some) > 0) {
                // take a little, then vanish
            }
        }
    }

    private static Request upload(String method, String name, int crc) {
        return new Request(Op.UPLOAD, method, name, "", SIZE, crc, Flags.VERIFY_CRC32C, 0);
    }

    /** Starts an upload, sends 64 KiB of its body, then resets the connection. */
    private static void abortUpload(int port, Request request) throws Exception {
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ch.setOption(StandardSocketOptions.SO_LINGER, 0);
            Frames.writeFully(ch, RequestCodec.encode(request));
            ResponseCodec.readUploadReady(ch);
            Frames.writeFully(ch, ByteBuffer.allocate(64 * 1024));
        }
    }

    /** Waits for connections to close and idle workers to leave, collects garbage, then samples. */
    private static ProcessResources settled(XferServer server) throws Exception {
        MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0 && server.workerThreads() == 0, "server idle");
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ProcessResources.sample();
    }

    private List<String> listing() throws Exception {
        try (Stream<Path> s = Files.list(dataDir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
