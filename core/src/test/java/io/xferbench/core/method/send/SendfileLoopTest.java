package io.xferbench.core.method.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.registry.DownloadMethods;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
/** Both sendfile loops, the JDK's ({@code transfer-to}) and the shim's ({@code sendfile}), on the sockets that trip them. */
class SendfileLoopTest {
    /** Far more than the small socket buffers below hold, so sendfile must find the socket full many times. */
    private static final int FILE_BYTES = 8 << 20 | 7;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"transfer-to", "sendfile"})
    void aVirtualThreadsSocketThatFillsUpGetsTheWholeFile(String method) throws Exception {
        assertWholeFileArrives(method, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"transfer-to", "sendfile"})
    void aPlatformThreadOnASocketAVirtualThreadMadeNonBlockingGetsTheWholeFile(String method) throws Exception {
        // The virtual+pool model: the connection's virtual thread reads the request, a pool thread sends.
        assertWholeFileArrives(method, true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"transfer-to", "sendfile"})
    void aFileShorterThanAskedIsAnEofNotAHang(String method) throws Exception {
        TestFile file = new DataDirectory(dir).generated(1 << 20);
        try (Pair pair = Pair.open();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
            CompletableFuture.runAsync(() -> drain(pair.client));
            SourceFile claimed = new SourceFile(file.path(), ch, 2L << 20);
            assertThatThrownBy(() -> sender(method).send(claimed, 0, claimed.size(), pair.accepted))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining("at " + (1 << 20) + " of " + (2 << 20));
        }
    }

    private void assertWholeFileArrives(String method, boolean sendFromPlatformThread) throws Exception {
        TestFile file = new DataDirectory(dir).generated(FILE_BYTES);
        try (Pair pair = Pair.open();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ);
             var virtual = Executors.newVirtualThreadPerTaskExecutor();
             var platform = Executors.newSingleThreadExecutor()) {
            pair.accepted.setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            pair.client.write(ByteBuffer.wrap(new byte[] {1}));
            // A read on a virtual thread is what makes the JDK set O_NONBLOCK on the socket, for good.
            virtual.submit(() -> pair.accepted.read(ByteBuffer.allocate(1))).get();
            SourceFile source = new SourceFile(file.path(), ch, file.size());
            Future<?> sent = (sendFromPlatformThread ? platform : virtual).submit(() -> {
                sender(method).send(source, 0, source.size(), pair.accepted);
                return null;
            });
            // The reader starts late, so the sender meets a full socket before a byte is taken.
            Thread.sleep(200);
            CompletableFuture<Integer> crc = CompletableFuture.supplyAsync(() -> {
                try {
                    return new BodyReceiver().receive(pair.client, file.size(), true);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            // A sender that gives up fails here, not in a reader left waiting for bytes that never come.
            sent.get();
            assertThat(crc.get()).isEqualTo(file.crc32c());
        }
    }

    private static FileSender sender(String method) throws IOException {
        SenderMethod m = DownloadMethods.byId(method).orElseThrow();
        assertThat(m.availability().isAvailable()).as(m.availability().unavailableReason()).isTrue();
        return m.newSender(TransferOptions.DEFAULT);
    }

    private static void drain(SocketChannel client) {
        ByteBuffer sink = ByteBuffer.allocate(65536);
        try {
            while (client.read(sink.clear()) >= 0) {
                // discard
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    private record Pair(ServerSocketChannel listener, SocketChannel client, SocketChannel accepted) implements AutoCloseable {
        static Pair open() throws IOException {
            ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open();
            client.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
            client.connect(listener.getLocalAddress());
            return new Pair(listener, client, listener.accept());
        }

        @Override
        public void close() throws IOException {
            try (listener; client; accepted) {
                // all three closed
            }
        }
    }
}
