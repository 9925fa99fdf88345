package io.xferbench.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A request whose answer is the server's own slow work (INFO's probes, perf for a window) is not cut by a short idle
 * timeout: under load, INFO took over a second and a 1 s idle timeout closed the connection before its answer.
 */
class RequestBudgetTest {
    private static final Duration IDLE = Duration.ofSeconds(1);
    private final ServerConfig config = ServerConfig.loopback(Path.of("unused")).withIdleTimeout(IDLE);

    @Test
    void theServersOwnWorkGetsAtLeastAMinute() {
        for (Op op : new Op[] {Op.INFO, Op.MEASURE_BEGIN, Op.MEASURE_END}) {
            assertThat(config.requestBudget(Request.control(op))).as(op.name()).isEqualTo(Duration.ofMinutes(1));
        }
    }

    @Test
    void aLongerIdleTimeoutStillApplies() {
        Duration hour = Duration.ofHours(1);
        assertThat(config.withIdleTimeout(hour).requestBudget(Request.control(Op.INFO))).isEqualTo(hour);
    }

    @Test
    void aTransferOfNothingKeepsTheIdleTimeout() {
        assertThat(config.requestBudget(Request.control(Op.STAT))).isEqualTo(IDLE);
    }
}
