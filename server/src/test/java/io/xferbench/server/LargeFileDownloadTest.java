package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.netty.NettyFileRegionSender;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file over 4 GiB (and not a multiple of the page size): one sendfile call moves at most ~2 GiB,
 * MappedByteBuffer windows are int-indexed and io_uring SQEs carry 64-bit offsets that Netty's FileRegion casts to
 * int, so only correct loops deliver every byte.
 */
class LargeFileDownloadTest {
    static final long SIZE = 4 * Sizes.GiB + 4097;

    @TempDir
    static Path dataDir;
    static XferServer server;
    static TestFile file;

    @BeforeAll
    static void start() throws Exception {
        assertThat(Files.getFileStore(dataDir).getUsableSpace()).as("free space for a 4 GiB test file").isGreaterThan(SIZE + Sizes.GiB);
        server = XferServer.start(ServerConfig.loopback(dataDir));
        file = server.data().generated(SIZE);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        Files.deleteIfExists(file.path());
    }

    @ParameterizedTest
    @ValueSource(strings = {"transfer-to", "mmap", "epoll-sendfile", "io-uring-read-send", "io-uring-send-zc", "io-uring-splice-linked", "io-uring-direct",
            "dontcache", "uring-fixed-send", "uring-fixed-send-zc"})
    void methodsWithLongOffsetsDeliverEveryByteOfA4GiBFile(String id) throws Exception {
        MethodAssumptions.assumeAvailable(id, "dontcache".equals(id) ? DontCacheHere.forFile(file.path())
                : DownloadMethods.byId(id).orElseThrow().availability());
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            DownloadResult r = c.download(Request.download(id, SIZE, Flags.VERIFY_CRC32C, 0));
            assertThat(r.failure()).isNull();
            assertThat(r.bytes()).isEqualTo(SIZE);
            assertThat(r.verified()).isTrue();
        }
    }

    @Test
    void ioUringRefusesFilesPastTheNetty4218OffsetLimitInsteadOfSendingWrongBytes() throws Exception {
        MethodAssumptions.assumeAvailable("io-uring", NettyTransport.IO_URING.availability());
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThatThrownBy(() -> c.download(Request.download("io-uring", SIZE, Flags.VERIFY_CRC32C, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
                    .hasMessageContaining("casts the file offset to int");
            // The refusal came before any body byte: the connection is still usable.
            assertThat(c.download(Request.download("io-uring", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    /**
     * Why the guard exists, checked against the Netty we ship: without it, a region at file offset 4 GiB sends
     * the bytes at offset 0 (the offset is truncated to int), and one at 2 GiB fails. If a Netty upgrade fixes
     * the cast, this test fails: lift the limit in IoUringSpliceSender then.
     */
    @Test
    void netty4218IoUringFileRegionTruncatesFileOffsetsToInt() throws Exception {
        MethodAssumptions.assumeAvailable("io-uring", NettyTransport.IO_URING.availability());
        int len = 64 * 1024;
        ByteBuffer atZero = expected(0, len);
        ByteBuffer atFourGiB = expected(4 * Sizes.GiB, len);
        assertThat(atZero).isNotEqualTo(atFourGiB);

        ByteBuffer received = sendUnguarded(4 * Sizes.GiB, len);
        assertThat(received).as("bytes sent for file offset 4 GiB").isEqualTo(atZero).isNotEqualTo(atFourGiB);

        assertThatThrownBy(() -> sendUnguarded(2 * Sizes.GiB + 4096, len)).isInstanceOf(IOException.class);
    }

    private static ByteBuffer expected(long offset, int len) {
        ByteBuffer b = ByteBuffer.allocate(len);
        new ContentGenerator(DataDirectory.SEED).fill(b, offset);
        return b.flip();
    }

    /** Sends [offset, offset+len) with Netty io_uring and no offset guard; returns what arrived. */
    private static ByteBuffer sendUnguarded(long offset, int len) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ);
             NettyFileRegionSender sender = new NettyFileRegionSender(NettyTransport.IO_URING, Integer.MAX_VALUE, Long.MAX_VALUE, "")) {
            CompletableFuture<ByteBuffer> read = CompletableFuture.supplyAsync(() -> {
                ByteBuffer b = ByteBuffer.allocate(len);
                try {
                    while (b.hasRemaining() && client.read(b) >= 0) {
                        // keep reading
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return b.flip();
            });
            sender.send(new SourceFile(file.path(), ch, file.size()), offset, len, accepted);
            return read.get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
