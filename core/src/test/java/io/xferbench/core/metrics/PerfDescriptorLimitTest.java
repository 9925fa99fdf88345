package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When perf is started through prlimit, with what limit, and what a window says when it cannot be. */
class PerfDescriptorLimitTest {
    private static final long NR_OPEN = 1 << 20;

    @Test
    void aHardLimitWithRoomForTwiceTheEventsNeedsNoWrapper() throws IOException {
        // 100 threads x 50 events + 64 = 5,064; twice that is 10,128.
        assertThat(PerfDescriptorLimit.wrapper(100, 50, 10_128, NR_OPEN, true, true)).isEmpty();
        assertThat(PerfDescriptorLimit.wrapper(100, 50, -1, NR_OPEN, false, false)).as("RLIM_INFINITY").isEmpty();
    }

    @Test
    void aLowHardLimitIsRaisedForPerfAloneThroughPrlimit() throws IOException {
        assertThat(PerfDescriptorLimit.wrapper(100, 50, 160, NR_OPEN, true, true))
                .containsExactly("/usr/bin/prlimit", "--nofile=10128:10128", "--");
        assertThat(PerfDescriptorLimit.wrapper(100, 50, 160, 8_000, true, true)).as("no more than fs.nr_open")
                .containsExactly("/usr/bin/prlimit", "--nofile=8000:8000", "--");
    }

    @Test
    void aLimitThatCannotBeRaisedButFitsTheThreadsThereNowIsTried() throws IOException {
        assertThat(PerfDescriptorLimit.wrapper(100, 50, 6_000, NR_OPEN, false, true)).isEmpty();
    }

    @Test
    void aLimitTooLowThatCannotBeRaisedIsOneLineSayingWhy() {
        assertThatThrownBy(() -> PerfDescriptorLimit.wrapper(100, 50, 160, NR_OPEN, false, true))
                .hasMessage("perf needs about 5064 open files (100 threads x 50 events) but the hard open-files limit is 160,"
                        + " and raising it for perf needs CAP_SYS_RESOURCE, which this process lacks (root has it unless a container dropped it)");
        assertThatThrownBy(() -> PerfDescriptorLimit.wrapper(100, 50, 160, NR_OPEN, true, false))
                .hasMessageEndingWith("util-linux prlimit (/usr/bin/prlimit), which would raise it for perf, is not installed");
        assertThatThrownBy(() -> PerfDescriptorLimit.wrapper(100, 50, 160, 4_096, true, true))
                .hasMessageEndingWith("fs.nr_open (4096) allows no more");
    }

    @Test
    void thisProcessGetsAWrapperOnlyIfItsOwnLimitIsShort() throws IOException {
        List<String> wrapper = PerfDescriptorLimit.wrapper(ProcessHandle.current().pid(), 1);
        assertThat(wrapper).as("a JVM's threads x 1 event fit any usual limit").isEmpty();
    }
}
