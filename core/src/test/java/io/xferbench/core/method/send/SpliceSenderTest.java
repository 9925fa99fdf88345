package io.xferbench.core.method.send;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.core.testing.MethodAssumptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SpliceSenderTest {
    @TempDir
    Path dir;

    @Test
    void freshAndPooledPipesSendTheFileByteExact() throws Exception {
        MethodAssumptions.assumeAvailable("splice sender", RawSplice.availability());
        TestFile file = new DataDirectory(dir).generated(1 << 20 | 1);
        try (PipePool pool = new PipePool(4096, 2, true);
             ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
            SourceFile source = new SourceFile(file.path(), ch, file.size());
            BodyReceiver receiver = new BodyReceiver();
            for (PipeSource pipes : new PipeSource[] {PipeSource.fresh(65536), pool, pool}) {
                CompletableFuture<Integer> crc = CompletableFuture.supplyAsync(() -> {
                    try {
                        return receiver.receive(client, file.size(), true);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                new SpliceSender(pipes).send(source, 0, file.size(), accepted);
                assertThat(crc.get()).as(pipes.toString()).isEqualTo(file.crc32c());
            }
            // A 4 KiB pipe: 257 round trips per send, yet one pipe for both pooled sends.
            assertThat(pool.stats().created()).isEqualTo(1);
            assertThat(pool.stats().threadLocalHits()).isEqualTo(1);
        }
    }
}
