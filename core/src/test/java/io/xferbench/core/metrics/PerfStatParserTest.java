package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class PerfStatParserTest {
    /** Captured from `perf stat -x, --no-big-num -D -1 --control ... -p PID` (perf 6.1). */
    static final String CAPTURED = """
            # started on Sun Nov 22 07:25:40 2026

            2036,,raw_syscalls:sys_enter,3507719,100.00,,
            1000,,syscalls:sys_enter_read,3507719,100.00,,
            0,,syscalls:sys_enter_sendfile64,3507719,100.00,,
            <not counted>,,syscalls:sys_enter_splice,0,0.00,,
            12,,io_uring:io_uring_submit_req,3507719,100.00,,
            7,,context-switches,3507719,100.00,,
            Events disabled
            """;

    @Test
    void parsesTotalsNamesUringAndSwitches() throws IOException {
        SyscallCounts c = PerfStatParser.parse(CAPTURED);
        assertThat(c.total()).isEqualTo(2036);
        assertThat(c.of("read")).isEqualTo(1000);
        assertThat(c.of("sendfile64")).isZero();
        assertThat(c.of("splice")).isZero();
        assertThat(c.ioUringSubmissions()).isEqualTo(12);
        assertThat(c.contextSwitches()).isEqualTo(7);
        assertThat(c.other()).isEqualTo(1036);
        // Named syscalls largest first, then "other" last, zeros left out.
        assertThat(c.nonZero()).containsExactly(java.util.Map.entry("read", 1000L), java.util.Map.entry("other", 1036L));
    }

    @Test
    void missingTotalOrUnsupportedEventIsAnError() {
        assertThatThrownBy(() -> PerfStatParser.parse("5,,syscalls:sys_enter_read,1,100.00,,\n"))
                .hasMessageContaining("raw_syscalls:sys_enter");
        assertThatThrownBy(() -> PerfStatParser.parse("<not supported>,,raw_syscalls:sys_enter,0,0,,\n"))
                .hasMessageContaining("not supported");
    }
}
