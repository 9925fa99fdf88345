package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.Wire;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 10,000 malformed requests from 4 clients at once; the server answers or closes each, and keeps serving. */
public class MalformedRequestStormTest {
    static final int REQUESTS = 10_000;

    @TempDir
    Path dataDir;

    @Test
    void serverSurvivesTenThousandMalformedRequests() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            AtomicInteger answered = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                Future<?>[] workers = new Future<?>[4];
                for (int w = 0; w < workers.length; w++) {
                    int seed = w;
                    workers[w] = pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(seed);
                        for (int i = 0; i < REQUESTS / 4; i++) {
                            if (throwOne(server.port(), malformed(random, i)) != null) {
                                answered.incrementAndGet();
                            }
                        }
                        return null;
                    });
                }
                for (Future<?> f : workers) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            // Every one of them, the truncated ones included (the client's FIN completes them), gets an error frame.
            assertThat(answered.get()).isEqualTo(REQUESTS);
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("transfer-to", Sizes.MiB + 1, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            waitUntil(() -> server.openConnections() <= 1, "malformed connections closed");
        }
    }

    /** The ten kinds of garbage, in turn. */
    static byte[] malformed(SplittableRandom random, int i) {
        byte[] valid = bytes(RequestCodec.encode(Request.download("stream", 1024, Flags.VERIFY_CRC32C, 0)));
        return switch (i % 10) {
            case 0 -> random.ints(random.nextInt(1, 200), 0, 256).collect(java.io.ByteArrayOutputStream::new,
                    (o, b) -> o.write(b), (a, b) -> { }).toByteArray();
            case 1 -> "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            case 2 -> ByteBuffer.allocate(6).putInt(Wire.MAGIC).putShort((short) 0xFFFF).array();
            case 3 -> java.util.Arrays.copyOf(valid, random.nextInt(1, valid.length));
            case 4 -> patch(valid, 7, (byte) 42);                                  // unknown op
            case 5 -> patch(valid, 6, (byte) 9);                                   // wrong version
            case 6 -> bytes(RequestCodec.encode(Request.download("no-such-method", 10, 0, 0)));
            case 7 -> bytes(RequestCodec.encode(Request.download("stream", 1L << 62, 0, 0)));      // absurd size
            case 8 -> bytes(RequestCodec.encode(new Request(Op.DOWNLOAD, "stream", "../../etc/passwd", "", 0, 0, 0, 0)));
            default -> patch(valid, 8, (byte) 0x7F);                              // unknown flags
        };
    }

    private static byte[] patch(byte[] b, int at, byte value) {
        byte[] c = b.clone();
        c[at] = value;
        return c;
    }

    /** Sends the bytes, half-closes, reads whatever answer comes; returns it, or null when the server just closed. */
    static byte[] throwOne(int port, byte[] payload) throws IOException {
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ch.setOption(StandardSocketOptions.SO_LINGER, 0);
            ch.write(ByteBuffer.wrap(payload));
            ch.shutdownOutput();
            ByteBuffer answer = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES + Wire.MAX_MESSAGE_BYTES);
            try {
                while (ch.read(answer) > 0) {
                    // read until the server closes
                }
            } catch (IOException reset) {
                // The server closed first; what arrived still counts.
            }
            return answer.position() >= Wire.RESPONSE_PREFIX_BYTES ? java.util.Arrays.copyOf(answer.array(), answer.position()) : null;
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    public static void waitUntil(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
