package io.xferbench.client.load.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.MachineDescription;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load table's environment line is read by people: it printed the tuning record's toString and memory in bytes. */
class LoadReportHeaderTest {
    @Test
    void kernelSettingsAreInWordsAndMemoryInGiB() throws Exception {
        LoadEnvironment environment = TestEnvironments.machine("JDK", "Linux 6.18", 2, "0-1", 25276510208L,
                new HostTuning("performance", "madvise", "max", "bbr", "4096 131072 33554432",
                        "4096 16384 4194304", "4194304", "4194304", "mq-deadline"));
        MachineDescription m = environment.machine();
        List<String> header = LoadReport.render(environment, TestEnvironments.SETTINGS, List.of(), LoadReportFormat.TABLE).lines()
                .limit(2).toList();
        assertThat(header).containsExactly(
                "# jdk " + m.jdk() + ", jvm " + m.jvm() + ", kernel " + m.kernel() + ", cpus " + m.cpus() + ", cpuModel " + m.cpuModel()
                        + ", cpusAllowed " + m.cpusAllowed() + ", memory 23.5 GiB, host " + m.host()
                        + ", tuning governor performance, THP madvise, cgroup memory max, TCP bbr rmem 4096 131072 33554432 wmem "
                        + "4096 16384 4194304 rmem_max 4194304 wmem_max 4194304, I/O scheduler mq-deadline"
                        + ", perfSyscallCounting " + m.perfSyscallCounting(),
                "# fileSize 1KiB, threads 1, duration 1000 ms, warmup 0 ms, loop closed");
    }
}
