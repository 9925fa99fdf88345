package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostTuningTest {
    @Test
    void theKernelsBracketedChoiceIsTheSelectedOne() {
        assertThat(HostTuning.selected("always [madvise] never")).isEqualTo("madvise");
        assertThat(HostTuning.selected("[mq-deadline] kyber bfq none")).isEqualTo("mq-deadline");
        assertThat(HostTuning.selected("none")).isEqualTo("none");
    }

    @Test
    void readingThisMachineFillsEveryFieldWithAValueOrUnavailable() {
        HostTuning t = HostTuning.read("/dev/no-such-device");
        assertThat(t.transparentHugePages()).isNotBlank().doesNotContain("[");
        assertThat(t.tcpCongestionControl()).isNotBlank();
        // Three numbers (min default max) when the sysctl is there: the whole file, not its first byte.
        assertThat(t.tcpRmem()).matches("unavailable|\\d+ \\d+ \\d+");
        assertThat(t.blockScheduler()).isEqualTo(HostTuning.UNAVAILABLE);
        assertThat(HostTuning.read(null).blockScheduler()).isNull();
    }
}
