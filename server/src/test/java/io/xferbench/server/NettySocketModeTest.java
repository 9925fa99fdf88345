package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Netty must drive an adopted socket as its own accept would have made it, non-blocking: a 64 MiB
 * epoll-sendfile then takes many partial sendfile calls paced by epoll_wait, not one blocking call that
 * parks the event loop. And the JDK must get its blocking socket back afterwards.
 */
class NettySocketModeTest {
    @TempDir
    Path dataDir;

    @Test
    void epollSendsOnANonBlockingSocketAndTheJdkGetsABlockingOneBack() throws Exception {
        MethodAssumptions.assumeAvailable("epoll-sendfile", NettyTransport.EPOLL.availability());
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        long size = 64 * Sizes.MiB;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // A small receive window keeps the socket full, so a non-blocking sendfile must return early over and
            // over, while a blocking one still moves everything in one call: the count tells the mode, whatever the
            // reader's pace (with the default window a fast reader once let one non-blocking call move all 64 MiB).
            c.channel().socket().setReceiveBufferSize(32 * 1024);
            c.download(Request.download("epoll-sendfile", size, 0, 0)); // adopt and warm outside the window
            SyscallCounts counts;
            try (PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid())) {
                perf.awaitAttached();
                perf.enable();
                assertThat(c.download(Request.download("epoll-sendfile", size, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                perf.disable();
                counts = perf.stop();
            }
            assertThat(counts.of("sendfile64")).as("partial non-blocking sendfile calls").isGreaterThan(4);
            // The server's JDK side is blocking again: a following JDK method makes no poll for EAGAIN.
            assertThat(c.download(Request.download("transfer-to", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }
}
