package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server whose SYNs go unanswered (a black-holed host; here a listener whose accept queue is full, so Linux drops
 * them): the connect fails after {@code --answer-timeout} with one line, where the old code waited for the kernel's
 * SYN retries (about two minutes).
 */
@Timeout(60)
class ConnectTimeoutTest {
    @Test
    void aConnectThatIsNeverAcceptedFailsWithOneLineAfterTheAnswerTimeout() throws Exception {
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort());
            boolean dropping = false;
            for (int i = 0; i < 64 && !dropping; i++) {
                Socket s = new Socket();
                queued.add(s);
                try {
                    s.connect(address, 300);
                } catch (SocketTimeoutException backlogFull) {
                    dropping = true;
                } catch (ConnectException refused) {
                    break; // net.ipv4.tcp_abort_on_overflow: a full queue refuses instead of dropping
                }
            }
            assumeTrue(dropping, "this kernel completes connects past a full accept queue (tcp_abort_on_overflow, or no "
                    + "backlog limit): no unanswered connect to test against");
            long start = System.nanoTime();
            UsageErrorsTest.Run r = UsageErrorsTest.run("info", "--port", Integer.toString(full.getLocalPort()),
                    "--answer-timeout", "1s");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err().strip()).isEqualTo("info: cannot connect: 127.0.0.1:" + full.getLocalPort()
                    + " did not accept within 1s");
            assertThat(seconds).isBetween(0.9, 20.0);
        } finally {
            for (Socket s : queued) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // Closing is all that is left.
                }
            }
        }
    }
}
