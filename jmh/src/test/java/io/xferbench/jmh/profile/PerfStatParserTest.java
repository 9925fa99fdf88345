package io.xferbench.jmh.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.metrics.PerfStatParser;
import io.xferbench.core.metrics.SyscallCounts;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parser the profiler's numbers go through, against output perf 6.1 wrote on Linux 6.18 ({@code perf stat
 * -x, --no-big-num -o FILE}), copied verbatim.
 */
class PerfStatParserTest {

    /** perf stat -x, --no-big-num -e ... -- dd if=/dev/zero bs=64k count=16 of=/dev/null */
    static final String DD = """
            # started on Sun Nov 22 07:46:17 2026

            157,,raw_syscalls:sys_enter,611708,100.00,,
            19,,syscalls:sys_enter_read,611708,100.00,,
            19,,syscalls:sys_enter_write,611708,100.00,,
            0,,syscalls:sys_enter_sendfile64,611708,100.00,,
            0,,io_uring:io_uring_submit_req,611708,100.00,,
            0,,context-switches,611708,100.00,,
            """;

    /**
     * perf attached ({@code -p}) to a JMH fork running transfer-to of 1 MiB, events off ({@code -D -1}), switched
     * on for two windows of 0.5 s through {@code --control fifo:ctl,ack}, then SIGINT.
     */
    static final String WINDOWED = """
            # started on Sun Nov 22 07:48:42 2026

            16931,,raw_syscalls:sys_enter,1001847489,100.00,,
            2,,syscalls:sys_enter_read,1001765083,100.00,,
            3,,syscalls:sys_enter_write,1001696430,100.00,,
            5626,,syscalls:sys_enter_sendfile64,1001636636,100.00,,
            5626,,syscalls:sys_enter_copy_file_range,1001540679,100.00,,
            42,,syscalls:sys_enter_futex,1001462309,100.00,,
            5626,,syscalls:sys_enter_newfstat,1001387968,100.00,,
            0,,io_uring:io_uring_submit_req,1001288236,100.00,,
            139,,context-switches,1001327886,100.00,,
            """;

    /** Events that were never enabled (perf -D -1 and no window). */
    static final String NEVER_ENABLED = """
            # started on Sun Nov 22 07:33:54 2026

            <not counted>,,raw_syscalls:sys_enter,0,100.00,,
            """;

    @Test
    void readsTotalsNamesIoUringAndSwitches() throws IOException {
        SyscallCounts c = PerfStatParser.parse(DD);
        assertThat(c.total()).isEqualTo(157);
        assertThat(c.of("read")).isEqualTo(19);
        assertThat(c.of("write")).isEqualTo(19);
        assertThat(c.of("sendfile64")).isZero();
        assertThat(c.bySyscall()).containsKeys("read", "write", "sendfile64");
        assertThat(c.ioUringSubmissions()).isZero();
        assertThat(c.contextSwitches()).isZero();
        assertThat(c.other()).isEqualTo(157 - 38);
        assertThat(c.nonZero()).containsExactly(Map.entry("read", 19L), Map.entry("write", 19L), Map.entry("other", 119L));
    }

    @Test
    void windowedOutputHasTheSameShape() throws IOException {
        SyscallCounts c = PerfStatParser.parse(WINDOWED);
        assertThat(c.total()).isEqualTo(16931);
        assertThat(c.of("sendfile64")).isEqualTo(5626);
        assertThat(c.of("copy_file_range")).isEqualTo(5626);
        assertThat(c.of("newfstat")).isEqualTo(5626);
        assertThat(c.contextSwitches()).isEqualTo(139);
        // Three calls per transfer, next to nothing else.
        assertThat(c.other()).isEqualTo(16931 - 2 - 3 - 3 * 5626 - 42);
    }

    @Test
    void notCountedIsZero() throws IOException {
        assertThat(PerfStatParser.parse(NEVER_ENABLED).total()).isZero();
    }

    @Test
    void notSupportedIsAnErrorNamingTheEvent() {
        // perf stat -x, --no-big-num -e raw_syscalls:sys_enter,cycles -- true, in a VM without a PMU.
        String out = """
                # started on Sun Nov 22 07:46:18 2026

                29,,raw_syscalls:sys_enter,359837,100.00,,
                <not supported>,,cycles,0,100.00,,
                """;
        assertThatThrownBy(() -> PerfStatParser.parse(out)).isInstanceOf(IOException.class).hasMessageContaining("cycles");
    }

    @Test
    void outputWithoutTheTotalIsRejected() {
        assertThatThrownBy(() -> PerfStatParser.parse("# started on Sun Nov 22 07:46:18 2026\n\n"))
                .isInstanceOf(IOException.class).hasMessageContaining("raw_syscalls:sys_enter");
    }
}
