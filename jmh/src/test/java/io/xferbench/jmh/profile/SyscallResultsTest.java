package io.xferbench.jmh.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.metrics.SyscallCounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SyscallResultsTest {

    private static Map<String, RatioResult> byLabel(List<RatioResult> results) {
        return results.stream().collect(Collectors.toMap(RatioResult::getLabel, r -> r));
    }

    @Test
    void normalisesEveryCountByOps() {
        Map<String, Long> names = new LinkedHashMap<>();
        names.put("sendfile64", 2000L);
        names.put("read", 0L);
        names.put("io_uring_enter", 0L);
        SyscallCounts counts = new SyscallCounts(2500, names, 40, 300);
        Map<String, RatioResult> r = byLabel(SyscallResults.of(counts, 1000, 2_000_000_000L, OptionalLong.of(4L << 20)));

        assertThat(r.get("syscalls.total/op").getScore()).isEqualTo(2.5);
        assertThat(r.get("syscalls.sendfile64/op").getScore()).isEqualTo(2.0);
        assertThat(r.get("syscalls.other/op").getScore()).isEqualTo(0.5);
        assertThat(r).doesNotContainKeys("syscalls.read/op", "syscalls.io_uring_enter/op");
        assertThat(r.get("io_uring.submissions/op").getScore()).isEqualTo(0.04);
        assertThat(r.get("ctxsw/op").getScore()).isEqualTo(0.3);
        assertThat(r.get("syscalls/MiB").getScore()).isEqualTo(2500.0 / 4000);
        assertThat(r.get("syscalls.total/s").getScore()).isEqualTo(1250.0);
        assertThat(r.get("syscalls.total/op").getScoreUnit()).isEqualTo("calls/op");
    }

    @Test
    void zeroCountsStillReportTheFixedLabels() {
        Map<String, RatioResult> r = byLabel(SyscallResults.of(new SyscallCounts(0, Map.of("read", 0L), 0, 0), 10, 1, OptionalLong.empty()));
        assertThat(r.keySet()).containsExactlyInAnyOrder("syscalls.total/op", "io_uring.submissions/op", "ctxsw/op", "syscalls.total/s");
        assertThat(r.get("syscalls.total/op").getScore()).isZero();
    }

    @Test
    void nothingWithoutOps() {
        assertThat(SyscallResults.of(new SyscallCounts(10, Map.of(), 0, 0), 0, 1, OptionalLong.of(1))).isEmpty();
    }
}
