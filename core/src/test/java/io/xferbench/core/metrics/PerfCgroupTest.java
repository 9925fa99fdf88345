package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Counting a process from outside, per cgroup and per CPU: the kernel sees the syscalls of the process moved in and
 * nothing of this JVM; the process goes back where it was and no cgroup is left.
 */
@Timeout(60)
class PerfCgroupTest {

    @Test
    void countsTheProcessesMovedInAndLeavesNothingBehind() throws Exception {
        MethodAssumptions.assumeAvailable("per-cgroup perf counting", PerfCgroup.availability());
        // A shell that waits for a line, then runs `true` 200 times (a fork + exec + wait each) and waits again.
        Process sh = new ProcessBuilder("sh", "-c", "read a; i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; echo done; read b")
                .redirectErrorStream(true).start();
        String name;
        try (PerfCgroup group = PerfCgroup.create("test", List.of(sh.pid()));
             PerfSyscallCounter perf = PerfSyscallCounter.attachCgroup(group.perfName(), List.of("execve", "read"))) {
            name = group.perfName();
            assertThat(Files.readString(Path.of("/proc", Long.toString(sh.pid()), "cgroup"))).contains(name);
            perf.awaitAttached();
            perf.enable();
            sh.getOutputStream().write("go\n".getBytes());
            sh.getOutputStream().flush();
            assertThat(new String(sh.getInputStream().readNBytes(5))).isEqualTo("done\n");
            for (int i = 0; i < 2000; i++) {
                Files.readString(Path.of("/proc/self/stat")); // this JVM's syscalls: not in the cgroup, not counted
            }
            perf.disable();
            SyscallCounts c = perf.stop();
            // The children forked inside the cgroup are counted too: one execve each.
            assertThat(c.of("execve")).isBetween(200L, 210L);
            assertThat(c.total()).isLessThan(200L * 200);
        } finally {
            sh.getOutputStream().write("end\n".getBytes());
            sh.getOutputStream().close();
            sh.waitFor(10, TimeUnit.SECONDS);
        }
        try (var left = Files.find(Path.of("/sys/fs/cgroup"), 3, (p, a) -> p.getFileName().toString().equals(name))) {
            assertThat(left.toList()).as("the cgroup is removed").isEmpty();
        }
    }

    @Test
    void aProcessStillAliveGoesBackToItsCgroup() throws Exception {
        MethodAssumptions.assumeAvailable("per-cgroup perf counting", PerfCgroup.availability());
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            String before = Files.readString(Path.of("/proc", Long.toString(sleeper.pid()), "cgroup"));
            String name;
            try (PerfCgroup group = PerfCgroup.create("back", List.of(sleeper.pid()))) {
                name = group.perfName();
                assertThat(Files.readString(Path.of("/proc", Long.toString(sleeper.pid()), "cgroup"))).contains(name);
            }
            assertThat(Files.readString(Path.of("/proc", Long.toString(sleeper.pid()), "cgroup"))).isEqualTo(before);
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
    }
}
