package io.xferbench.core.method.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Relay;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.core.testing.MethodAssumptions;
import com.sun.jna.Library;
import com.sun.jna.Native;
import io.xferbench.nativeio.Fds;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner of a relay's JDK channels may close them while the splice pumps run (the proxy does, on close). The fd
 * number is then free, and the next descriptor opened takes it: a pump still splicing to that number would write
 * the relayed bytes into it.
 */
@Timeout(60)
class SpliceRelayFdReuseTest {
    /** dup2(2), to put the file at the freed number where the JVM had a lower one free. */
    interface C extends Library {
        int dup2(int oldFd, int newFd);

        int close(int fd);
    }

    private static final C LIBC = Native.load("c", C.class);

    @TempDir
    Path dir;

    @Test
    void bytesRelayedAfterTheOwnerClosedTheChannelNeverReachTheDescriptorThatReusedItsNumber() throws Exception {
        MethodAssumptions.assumeAvailable("splice relay (raw splice)", RawSplice.availability());
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            SocketChannel clientPeer = SocketChannel.open(listener.getLocalAddress());
            SocketChannel client = listener.accept();
            SocketChannel upstream = SocketChannel.open(listener.getLocalAddress());
            SocketChannel upstreamPeer = listener.accept();
            Relay relay = SpliceRelay.METHOD.newRelay(TransferOptions.DEFAULT);
            CompletableFuture<Object> relayed = CompletableFuture.supplyAsync(() -> {
                try {
                    return relay.relay(client, upstream);
                } catch (Exception e) {
                    return e;
                }
            });
            try {
                // A first message through proves both pumps run; they then block reading their sockets. The owner
                // closes the upstream channel (no shutdown: the close alone frees the number) and a file takes the
                // number, as the next descriptor opened in the process would.
                assertThat(relayThrough(clientPeer, upstreamPeer, "first", null)).isEqualTo("first");
                int number = Fds.of(upstream);
                upstream.close();
                Path strangerPath = dir.resolve("stranger");
                try (FileChannel stranger = FileChannel.open(strangerPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    // The open usually takes the freed number itself; if another number was lower, dup2 puts it there.
                    boolean placed = Fds.of(stranger) != number;
                    if (placed) {
                        assertThat(LIBC.dup2(Fds.of(stranger), number)).isEqualTo(number);
                    }
                    try {
                        String got = relayThrough(clientPeer, upstreamPeer, "after the close", strangerPath);
                        assertThat(Files.size(strangerPath)).as("bytes spliced into the descriptor that took the number").isZero();
                        assertThat(got).as("the upstream socket lives on through the relay's own descriptor").isEqualTo("after the close");
                    } finally {
                        if (placed) {
                            LIBC.close(number);
                        }
                    }
                }
            } finally {
                clientPeer.close();
                upstreamPeer.close();
                relayed.get(30, TimeUnit.SECONDS);
                client.close();
                relay.close();
            }
        }
    }

    /** Sends {@code text} from the client's peer; returns what reached the upstream's peer, or stops early once {@code stray} has bytes. */
    private static String relayThrough(SocketChannel clientPeer, SocketChannel upstreamPeer, String text, Path stray) throws Exception {
        ByteBuffer sent = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (sent.hasRemaining()) {
            clientPeer.write(sent);
        }
        upstreamPeer.configureBlocking(false);
        ByteBuffer got = ByteBuffer.allocate(sent.capacity());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got.hasRemaining() && System.nanoTime() < deadline && (stray == null || Files.size(stray) == 0)) {
            if (upstreamPeer.read(got) < 0) {
                break;
            }
            Thread.sleep(1);
        }
        return new String(got.array(), 0, got.position(), StandardCharsets.UTF_8);
    }
}
