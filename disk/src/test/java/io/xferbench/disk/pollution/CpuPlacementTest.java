package io.xferbench.disk.pollution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuPlacementTest {
    @Test
    void theKernelsCpuListsAreRead() {
        assertThat(CpuPlacement.parseList("0-1")).containsExactly(0, 1);
        assertThat(CpuPlacement.parseList("0-3,6,8-9")).containsExactly(0, 1, 2, 3, 6, 8, 9);
        assertThat(CpuPlacement.parseList("5")).containsExactly(5);
    }

    @Test
    void splitPutsTheReaderOnTheLastAllowedCpuAndEverythingElseOnTheRest() {
        CpuPlacement p = CpuPlacement.decide(true, List.of(0, 2, 3), true);
        assertThat(p.split()).isTrue();
        assertThat(p.readerPrefix()).containsExactly("/usr/bin/taskset", "--cpu-list", "3");
        assertThat(p.serverPrefix()).containsExactly("/usr/bin/taskset", "--cpu-list", "0,2");
        assertThat(p.describe()).startsWith("split: the big reader on CPU 3, the server, the clients and the sampler on CPU 0,2");
    }

    @Test
    void oneCpuNoTasksetOrSharedPinNothingAndSayWhy() throws IOException {
        CpuPlacement one = CpuPlacement.decide(true, List.of(0), true);
        assertThat(one.split()).isFalse();
        assertThat(one.readerPrefix()).isEmpty();
        assertThat(one.serverPrefix()).isEmpty();
        assertThat(one.describe()).contains("one CPU only");
        one.pinThisJvm(); // nothing to do, nothing run
        one.checkReader(ProcessHandle.current().pid());

        assertThat(CpuPlacement.decide(true, List.of(0, 1), false).describe()).contains("taskset not found");
        assertThat(CpuPlacement.decide(false, List.of(0, 1), true).describe()).startsWith("shared: nothing pinned (--cpus shared)");
    }

    @Test
    void aProcessNotWhereItWasPutFailsTheCheck() throws IOException {
        List<Integer> mine = CpuPlacement.allowedCpus(ProcessHandle.current().pid());
        MethodAssumptions.assumeAvailable("a split placement", mine.size() >= 2, "this process may use one CPU only: nothing to split");
        CpuPlacement p = CpuPlacement.decide(true, mine, true);
        // This JVM may run on every allowed CPU, so it is neither where the reader nor where the server was put.
        assertThatThrownBy(() -> p.checkReader(ProcessHandle.current().pid())).isInstanceOf(IOException.class)
                .hasMessageContaining("the big reader").hasMessageContaining("not " + mine.getLast());
        assertThatThrownBy(() -> p.checkServer(ProcessHandle.current().pid())).isInstanceOf(IOException.class);
    }
}
