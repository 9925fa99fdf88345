package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.BodyReceiver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 100 concurrent io_uring downloads must not grow a hundred io-wq workers (Netty issue 15125): the server caps them
 * per ring with {@code --io-uring-max-workers}. The workers are threads of the server process ({@code iou-wrk-*} in
 * /proc/PID/task), counted from outside while the downloads run.
 */
@Timeout(180)
class IoUringWorkerCapTest {
    private static final int CLIENTS = 100;
    private static final int CAP = 1;
    private static final long STALL_MILLIS = 1500;

    @TempDir
    Path dataDir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"io-uring", "io-uring-read-send", "io-uring-splice-linked"})
    void ioWqWorkersStayWithinTheCap(String method) throws Exception {
        MethodAssumptions.assumeAvailable(method, NettyTransport.IO_URING.availability());
        long size = 4 << 20;
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-uring-max-workers", Integer.toString(CAP),
                "--max-connections", Integer.toString(CLIENTS + 10));
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            long pid = server.process.pid();
            AtomicInteger peak = new AtomicInteger();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (sampling.get()) {
                    peak.accumulateAndGet(ioWorkers(pid), Math::max);
                    Thread.onSpinWait();
                }
            });
            CountDownLatch allConnected = new CountDownLatch(CLIENTS);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                results.add(clients.submit(() -> {
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
                        c.control(Op.INFO);
                        allConnected.countDown();
                        allConnected.await();
                        return stalledDownload(c.channel(), Request.download(method, size, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0));
                    }
                }));
            }
            int verified = 0;
            for (Future<Boolean> f : results) {
                verified += f.get() ? 1 : 0;
            }
            sampling.set(false);
            sampler.join();
            assertThat(verified).isEqualTo(CLIENTS);
            int rings = Runtime.getRuntime().availableProcessors();
            assertThat(peak.get()).as("peak iou-wrk threads with a cap of %d per ring and kind, %d rings", CAP, rings)
                    .isLessThanOrEqualTo(2 * rings * CAP); // bounded + unbounded, per ring
            if (method.equals("io-uring")) {
                // IORING_OP_SPLICE of uncached pages goes to io-wq (uncapped, this run peaks at 14 workers on 2 cores): the
                // workers were there to be counted, so the bound above was tested.
                assertThat(peak.get()).as("io-wq workers seen during 100 splice downloads").isPositive();
            }
        }
    }

    /**
     * Asks for the file with a cold page cache, then reads nothing for a while through a small receive buffer, so
     * that many transfers are in the kernel at once. Then reads and verifies the whole file.
     */
    private static boolean stalledDownload(SocketChannel ch, Request request) throws Exception {
        ch.setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
        Frames.writeFully(ch, RequestCodec.encode(request));
        Thread.sleep(STALL_MILLIS);
        DownloadHeader header = ResponseCodec.readDownloadHeader(ch);
        int crc = new BodyReceiver().receive(ch, header.length(), true);
        ResponseCodec.readTrailer(ch);
        return header.length() == request.size() && crc == header.crc32c();
    }

    /** Threads of {@code pid} that are io_uring io-wq workers. */
    private static int ioWorkers(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return (int) tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).startsWith("iou-wrk");
                } catch (IOException e) {
                    return false; // the thread exited between the listing and the read
                }
            }).count();
        } catch (IOException e) {
            return 0; // the process is exiting
        }
    }
}
