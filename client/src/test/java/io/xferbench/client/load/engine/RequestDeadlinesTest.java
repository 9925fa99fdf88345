package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The deadline list: in order of last progress, a request's bytes moving pushes its deadline back, removal is final. */
class RequestDeadlinesTest {
    private final RequestDeadlines<String> deadlines = new RequestDeadlines<>(Duration.ofNanos(100));
    private final RequestDeadlines.Entry<String> a = new RequestDeadlines.Entry<>("a");
    private final RequestDeadlines.Entry<String> b = new RequestDeadlines.Entry<>("b");
    private final RequestDeadlines.Entry<String> c = new RequestDeadlines.Entry<>("c");

    @Test
    void expiresInDeadlineOrderAndOnlyWhenDue() {
        deadlines.progress(a, 0);
        deadlines.progress(b, 10);
        deadlines.progress(c, 20);
        assertThat(deadlines.nextDeadlineNanos()).isEqualTo(100);
        assertThat(deadlines.expired(99)).isNull();
        assertThat(deadlines.expired(115)).isEqualTo("a");
        assertThat(deadlines.expired(115)).isEqualTo("b");
        assertThat(deadlines.expired(115)).isNull();
        assertThat(deadlines.nextDeadlineNanos()).isEqualTo(120);
    }

    @Test
    void progressMovesADeadlineBackAndRemovedRequestsNeverExpire() {
        deadlines.progress(a, 0);
        deadlines.progress(b, 10);
        deadlines.progress(c, 20);
        deadlines.progress(a, 50); // bytes moved: a is now last
        deadlines.remove(b); // answered
        deadlines.remove(b); // twice is harmless
        assertThat(deadlines.expired(1_000)).isEqualTo("c");
        assertThat(deadlines.expired(1_000)).isEqualTo("a");
        assertThat(deadlines.expired(1_000)).isNull();
        assertThat(deadlines.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        deadlines.progress(b, 2_000); // the entry is reused by the connection's next request
        assertThat(deadlines.expired(2_099)).isNull();
        assertThat(deadlines.expired(2_100)).isEqualTo("b");
    }

    @Test
    void aTimeoutThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> new RequestDeadlines<>(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
