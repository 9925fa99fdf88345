package io.xferbench.client.load.fileops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.xferbench.client.load.SilentServer;
import io.xferbench.client.load.exchange.HttpDeleteExchange;
import io.xferbench.core.net.NoAnswerException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The blocking exchanges after a row, HTTP read-back and clean-up and native clean-up, are bounded by the answer
 * timeout and fail naming the server and the exchange (the old HTTP client waited for good; the native deletes waited
 * XferConnection's fixed 60 s).
 */
class AroundTheRowNoAnswerTest {
    private static final Duration ANSWER = Duration.ofMillis(300);
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void httpReadBackAndDeletesOfASilentServerFailNamingWhatWasAwaited() throws Exception {
        try (SilentServer silent = new SilentServer();
             HttpFileClient client = new HttpFileClient(silent.address(), ANSWER)) {
            String peer = "127.0.0.1:" + silent.port();
            assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> client.readBack(peer, List.of("xferbench-load-a.dat"), 10, 0))
                    .isInstanceOf(NoAnswerException.class)
                    .hasMessage("no answer from " + peer + " within 300ms (waiting for the read-back GET of xferbench-load-a.dat, after the row)"));
            assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> client.deleteAll(new HttpDeleteExchange(peer), List.of("xferbench-load-b.dat")))
                    .isInstanceOf(NoAnswerException.class)
                    .hasMessage("no answer from " + peer + " within 300ms (waiting for the DELETE of the load's file xferbench-load-b.dat)"));
            assertThat(silent.accepted()).isEqualTo(2); // a connection closed after its timeout is not reused
        }
    }

    @Test
    void nativeDeletesOfASilentServerFailAfterTheAnswerTimeout() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            long start = System.nanoTime();
            assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> RemoteDeletes.delete(silent.address(), "",
                    List.of("xferbench-load-c.dat"), ANSWER))
                    .isInstanceOf(NoAnswerException.class)
                    .hasMessage("no answer from 127.0.0.1:" + silent.port()
                            + " within 300ms (waiting for the DELETE of the load's file xferbench-load-c.dat)"));
            assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
        }
    }
}
