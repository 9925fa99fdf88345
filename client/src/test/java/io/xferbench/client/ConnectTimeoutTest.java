package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.UnansweredListener;
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
        try (UnansweredListener full = new UnansweredListener()) {
            MethodAssumptions.assumeAvailable("a server that drops SYNs", full.dropsSyns(), UnansweredListener.SKIP_REASON);
            long start = System.nanoTime();
            UsageErrorsTest.Run r = UsageErrorsTest.run("info", "--port", Integer.toString(full.port()),
                    "--answer-timeout", "1s");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err().strip()).isEqualTo("info: cannot connect: 127.0.0.1:" + full.port()
                    + " did not accept within 1s");
            assertThat(seconds).isBetween(0.9, 20.0);
        }
    }
}
