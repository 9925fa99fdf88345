package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.method.receive.IoUringRecvWriteReceiver;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.send.IoUringDirectSender;
import io.xferbench.core.method.send.IoUringReadSendSender;
import io.xferbench.core.method.send.IoUringSendZcSender;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.testing.MethodAssumptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class UringFileSenderTest {
    @TempDir
    Path dir;

    /** Ranges that start and end off chunk (and O_DIRECT block) boundaries, twice per connection (slots reused). */
    @ParameterizedTest(name = "direct={0} zeroCopy={1} chunk={2}")
    @CsvSource({"false,false,65536", "false,false,4096", "false,true,65536", "true,false,65536", "true,true,8192"})
    void sendsExactRangesInOrder(boolean direct, boolean zeroCopy, int chunk) throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", NettyTransport.IO_URING.availability());
        TestFile file = new DataDirectory(dir).generated((3 << 20) + 4097);
        long[][] ranges = {{0, file.size()}, {4095, 1}, {12345, (1 << 20) + 7}, {file.size() - 1, 1}, {100, 0}};
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ);
             UringFileSender sender = new UringFileSender(chunk, direct, zeroCopy)) {
            SourceFile source = new SourceFile(file.path(), ch, file.size());
            for (long[] r : ranges) {
                CompletableFuture<Integer> crc = LoopbackBodies.receive(client, r[1]);
                sender.send(source, r[0], r[1], accepted);
                assertThat(crc.get()).as("range %d+%d", r[0], r[1]).isEqualTo(LoopbackBodies.crcOf(ch, r[0], r[1]));
            }
        }
    }

    @Test
    void aFileTruncatedUnderTheSenderFailsInsteadOfSendingZeros() throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", NettyTransport.IO_URING.availability());
        TestFile file = new DataDirectory(dir).generated(1 << 20);
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ, StandardOpenOption.WRITE);
             UringFileSender sender = new UringFileSender(65536, false, false)) {
            ch.truncate(1000);
            CompletableFuture<Integer> crc = LoopbackBodies.receive(client, 1 << 20);
            SourceFile source = new SourceFile(file.path(), ch, 1 << 20);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> sender.send(source, 0, 1 << 20, accepted))
                    .isInstanceOf(java.io.EOFException.class).hasMessageContaining("truncated");
            accepted.close(); // the sender kept no duplicate of it: the client sees the end at once
            assertThat(crc).failsWithin(java.time.Duration.ofSeconds(10));
        }
    }

    /** The server reserves what the sender really holds: a buffer per chunk in flight, not one. */
    @Test
    void theEngineMethodsDeclareTheirBuffersInFlight() {
        TransferOptions options = new TransferOptions(65536, false);
        for (TransferMethod m : List.of(IoUringReadSendSender.METHOD, IoUringSendZcSender.METHOD, IoUringDirectSender.METHOD,
                IoUringRecvWriteReceiver.METHOD)) {
            assertThat(m.bufferBytes(options)).as(m.id()).isEqualTo(65536L * UringDepth.get());
        }
    }
}
