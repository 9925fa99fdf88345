package io.xferbench.disk;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On this machine's real hierarchy: the group with its limit, a child inside, removal, stale groups cleaned. */
class MemoryCgroupTest {
    private static void assumeWritable() {
        MethodAssumptions.assumeAvailable("memory cgroup", new Availability(MemoryCgroup.unavailableReason()));
    }

    @Test
    void createsLimitsRunsAChildInsideAndRemovesTheGroup() throws Exception {
        assumeWritable();
        long limit = 64L << 20;
        Path dir;
        try (MemoryCgroup group = MemoryCgroup.create(limit)) {
            dir = group.dir();
            assertTrue(Files.isDirectory(dir));
            Path limitFile = dir.resolve(group.hierarchy().limitFile());
            assertEquals(limit, Long.parseLong(Files.readString(limitFile).trim()));
            assertEquals(limit, group.enforcedLimitBytes());
            // The child reports the cgroup it runs in: it must be ours from its first instruction.
            Process p = new ProcessBuilder(group.wrap(List.of("cat", "/proc/self/cgroup"))).start();
            String cgroups = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor());
            assertTrue(cgroups.contains(dir.getFileName().toString()), cgroups);
            // hasMember reads /proc/PID/cgroup: a process inside is a member, this JVM (outside) is not.
            Process sleeper = new ProcessBuilder(group.wrap(List.of("sleep", "30"))).start();
            try {
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!group.hasMember(sleeper.pid()) && System.nanoTime() < deadline) {
                    Thread.sleep(10); // the shell joins the group, then execs sleep
                }
                assertTrue(group.hasMember(sleeper.pid()), "the wrapped child is not a member");
                assertFalse(group.hasMember(ProcessHandle.current().pid()), "this JVM counted as a member");
            } finally {
                sleeper.destroyForcibly().waitFor();
            }
        }
        assertFalse(Files.exists(dir), "the group outlived close()");
    }

    @Test
    void removesAStaleGroupWhoseOwnerIsDeadAndKeepsALiveOne() throws Exception {
        assumeWritable();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path parent = MemoryHierarchy.detect().hierarchy().root();
        Path stale = parent.resolve(MemoryCgroup.PREFIX + gone.pid() + "-0");
        Files.createDirectory(stale);
        try (MemoryCgroup live = MemoryCgroup.create(64L << 20)) { // create() cleans first
            assertFalse(Files.exists(stale), "a stale group of a dead owner survived");
            assertTrue(MemoryCgroup.removeStale(CgroupHost.system()).isEmpty(), "the live owner's group was treated as stale");
            assertTrue(Files.exists(live.dir()));
        } finally {
            Files.deleteIfExists(stale);
        }
    }
}
