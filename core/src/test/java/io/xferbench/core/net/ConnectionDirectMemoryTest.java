package io.xferbench.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Trailer;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Direct memory a client's connections reserve, counted by the JVM's "direct" buffer pool (allocations and bytes,
 * not time): a connection that exchanges only frames reserves none, and connections that receive bodies one after
 * another share one receive buffer. Each connection used to allocate its own 1 MiB buffer when it opened.
 */
@Timeout(60)
class ConnectionDirectMemoryTest {
    private static final int CONNECTIONS = 40;
    private static final int BODY = 4096;

    private ServerSocketChannel listener;
    private Thread serving;
    private int port;

    /** Answers STAT, PREPARE and DOWNLOAD on one connection after another, from one thread and one direct body buffer. */
    @BeforeEach
    void serve() throws Exception {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        ByteBuffer body = ByteBuffer.allocateDirect(BODY); // allocated before any baseline is taken
        serving = Thread.ofPlatform().daemon().start(() -> {
            while (listener.isOpen()) {
                try (SocketChannel c = listener.accept()) {
                    for (Request r; (r = RequestCodec.read(c)) != null; ) {
                        if (r.op() == Op.STAT) {
                            Frames.writeFully(c, ResponseCodec.stat(new FileStat(true, 1, 2)));
                        } else if (r.op() == Op.PREPARE) {
                            Frames.writeFully(c, ResponseCodec.prepared(new Prepared(0, 1000, 1)));
                        } else {
                            Frames.writeFully(c, ResponseCodec.downloadHeader(new DownloadHeader(r.size(), 0, -1)));
                            Frames.writeFully(c, body.clear().limit((int) r.size()));
                            Frames.writeFully(c, ResponseCodec.trailer(Trailer.ok(1, -1)));
                        }
                    }
                } catch (Exception ended) {
                    // The listener was closed (the test is over) or the client went away: next connection.
                }
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        listener.close();
        serving.join(10_000);
    }

    @Test
    void connectionsThatExchangeOnlyFramesReserveNoDirectMemory() throws Exception {
        statAndEmptyDownload(); // the JDK's per-thread temporary buffers for heap I/O, once
        Direct before = Direct.now();
        for (int i = 0; i < CONNECTIONS; i++) {
            statAndEmptyDownload();
        }
        Direct after = Direct.now();
        assertThat(after.count - before.count).as("direct buffers allocated by %d connections", CONNECTIONS).isZero();
        assertThat(after.bytes - before.bytes).as("direct bytes reserved by %d connections", CONNECTIONS).isZero();
    }

    @Test
    void connectionsReceivingBodiesOneAfterAnotherShareOneBuffer() throws Exception {
        download(BODY); // takes (or allocates) the receive buffer and gives it back on close
        Direct before = Direct.now();
        for (int i = 0; i < CONNECTIONS; i++) {
            download(BODY);
        }
        Direct after = Direct.now();
        assertThat(after.count - before.count).as("direct buffers allocated by %d connections", CONNECTIONS).isZero();
        assertThat(after.bytes - before.bytes).as("direct bytes reserved by %d connections", CONNECTIONS).isZero();
    }

    @Test
    void aPrepareTakesTheReceiveBufferSoTheTimedDownloadAllocatesNothing() throws Exception {
        download(BODY);
        List<ByteBuffer> held = new ArrayList<>();
        try {
            // Empty the free list, so that the buffer this connection takes has to be allocated, and show where.
            for (Direct d = Direct.now(); Direct.now().count == d.count; ) {
                held.add(ReceiveBuffers.take());
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                Request download = Request.download("transfer-to", BODY, 0, 0);
                Direct beforePrepare = Direct.now();
                c.prepare(download);
                Direct beforeDownload = Direct.now();
                assertThat(c.download(download).bytes()).isEqualTo(BODY);
                Direct after = Direct.now();
                assertThat(beforeDownload.count - beforePrepare.count).as("direct buffers allocated by the PREPARE").isEqualTo(1);
                assertThat(after.count - beforeDownload.count).as("direct buffers allocated by the download").isZero();
            }
        } finally {
            held.forEach(ReceiveBuffers::give);
        }
    }

    @Test
    void aConnectionReleasedWhileOpenStillReceives() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
            c.close(); // closed twice below: the buffer goes back once
            assertThat(c.channel().isOpen()).isFalse();
        }
        BodyReceiver receiver = new BodyReceiver();
        receiver.release(); // before any body: nothing to give back, and the next body takes a buffer
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            Frames.writeFully(ch, RequestCodec.encode(Request.download("transfer-to", BODY, 0, 0)));
            assertThat(ResponseCodec.readDownloadHeader(ch).length()).isEqualTo(BODY);
            receiver.receive(ch, BODY, false);
            assertThat(receiver.received()).isEqualTo(BODY);
            ResponseCodec.readTrailer(ch);
        }
    }

    private void statAndEmptyDownload() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
            assertThat(c.stat("f").size()).isEqualTo(1);
            assertThat(c.download(Request.download("transfer-to", 0, 0, 0)).bytes()).isZero();
        }
    }

    private void download(int size) throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
            assertThat(c.download(Request.download("transfer-to", size, 0, 0)).bytes()).isEqualTo(size);
        }
    }

    private record Direct(long count, long bytes) {
        static Direct now() {
            BufferPoolMXBean pool = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                    .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
            return new Direct(pool.getCount(), pool.getTotalCapacity());
        }
    }
}
