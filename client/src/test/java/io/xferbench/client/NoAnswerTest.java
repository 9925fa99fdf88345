package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server (or a proxy's upstream) that accepts and never answers: the client's control exchanges fail after
 * {@code --answer-timeout} with one line, instead of waiting for good (the old code hung until killed).
 */
@Timeout(60)
class NoAnswerTest {
    @Test
    void infoFromASilentServerFailsWithOneLineAfterTheAnswerTimeout() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, read from never, answered never
                    }
                } catch (Exception closed) {
                    // The test is over.
                }
            });
            long start = System.nanoTime();
            UsageErrorsTest.Run r = UsageErrorsTest.run("info", "--port", Integer.toString(silent.getLocalPort()),
                    "--answer-timeout", "1s");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err().strip()).isEqualTo("info: no answer from 127.0.0.1:" + silent.getLocalPort() + " within 1s");
            assertThat(seconds).isBetween(0.9, 20.0);
            acceptor.interrupt();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aTimeoutThatIsNotPositiveIsAUsageError() {
        for (String bad : new String[] {"0", "0s", "-1s", "soon"}) {
            UsageErrorsTest.Run r = UsageErrorsTest.run("info", "--answer-timeout", bad);
            assertThat(r.exit()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        }
    }
}
