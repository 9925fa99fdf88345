package io.xferbench.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The helper's v1 and v2 logic against a temp directory laid out like /sys/fs/cgroup (v2) or /sys/fs/cgroup/memory
 * (v1), mountinfo lines that name it, and a /proc of fake /proc/PID/cgroup files: detection, create, the limit
 * written, a process moved in, membership, removal, stale groups, and the reason when no group can be made. The
 * kernel's part (control files appearing on mkdir, going on rmdir) is {@link FakeKernel}'s.
 */
class MemoryCgroupLayoutTest {
    private static final long LIMIT = 64L << 20;

    @TempDir
    Path tmp;

    /** What cgroupfs does on mkdir/rmdir, on plain files. */
    private static class FakeKernel implements CgroupHost.GroupDirectories {
        private final boolean v2;

        FakeKernel(boolean v2) {
            this.v2 = v2;
        }

        @Override
        public void make(Path group) throws IOException {
            Files.createDirectory(group);
            Files.writeString(group.resolve("cgroup.procs"), "");
            if (v2) {
                // A v2 child gets memory.* only when its parent enabled memory in cgroup.subtree_control.
                if (Files.readString(group.getParent().resolve("cgroup.subtree_control")).contains("memory")) {
                    Files.writeString(group.resolve("memory.max"), "max\n");
                    Files.writeString(group.resolve("memory.swap.max"), "max\n");
                    Files.writeString(group.resolve("memory.current"), "12288\n");
                    Files.writeString(group.resolve("memory.peak"), "16384\n");
                }
                Files.writeString(group.resolve("cgroup.controllers"), "");
                Files.writeString(group.resolve("cgroup.subtree_control"), "");
            } else {
                Files.writeString(group.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
                Files.writeString(group.resolve("memory.usage_in_bytes"), "8192\n");
                Files.writeString(group.resolve("memory.max_usage_in_bytes"), "20480\n");
            }
        }

        @Override
        public void remove(Path group) throws IOException {
            if (!Files.exists(group)) {
                return;
            }
            if (!Files.readString(group.resolve("cgroup.procs")).isBlank()) {
                throw new IOException("rmdir " + group + ": Device or resource busy");
            }
            try (Stream<Path> files = Files.list(group)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(group);
        }
    }

    /** A cgroup2 root like /sys/fs/cgroup on a v2 machine. */
    private Path v2Root(String controllers) throws IOException {
        Path root = Files.createDirectories(tmp.resolve("sys/fs/cgroup"));
        Files.writeString(root.resolve("cgroup.controllers"), controllers + "\n");
        Files.writeString(root.resolve("cgroup.subtree_control"), "\n");
        Files.writeString(root.resolve("cgroup.procs"), "1\n");
        return root;
    }

    /** A v1 memory hierarchy like /sys/fs/cgroup/memory. */
    private Path v1Root() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("sys/fs/cgroup/memory"));
        Files.writeString(root.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
        Files.writeString(root.resolve("cgroup.procs"), "1\n");
        return root;
    }

    private static String cgroup2Line(Path at, String options) {
        return "30 23 0:26 / " + at + " " + options + " shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot";
    }

    private static String v1MemoryLine(Path at) {
        return "35 31 0:32 / " + at + " rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,memory";
    }

    private CgroupHost host(List<String> mountinfo, boolean v2) throws IOException {
        return new CgroupHost(MemoryHierarchy.detect(mountinfo), Files.createDirectories(tmp.resolve("proc")),
                new FakeKernel(v2));
    }

    /** A fake /proc/PID/cgroup. */
    private void procCgroup(long pid, String text) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("proc").resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("cgroup"), text);
    }

    @Test
    void detectsV2WhenTheCgroup2MountListsMemory() throws IOException {
        Path root = v2Root("cpuset cpu io memory hugetlb pids rdma misc");
        MemoryHierarchy.Detection d = MemoryHierarchy.detect(List.of(
                "22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw",
                cgroup2Line(root, "rw,nosuid,nodev,noexec,relatime")));
        assertNull(d.reason());
        assertTrue(d.hierarchy().v2());
        assertEquals(root, d.hierarchy().root());
        assertEquals("v2 memory.max", d.hierarchy().version());
        assertNull(d.hierarchy().note());
    }

    @Test
    void detectsV1AndSaysWhyAHybridCgroup2MountIsNotUsed() throws IOException {
        Path v1 = v1Root();
        Path unified = Files.createDirectories(tmp.resolve("sys/fs/cgroup/unified"));
        Files.writeString(unified.resolve("cgroup.controllers"), "hugetlb\n"); // memory is bound to v1
        MemoryHierarchy.Detection d = MemoryHierarchy.detect(List.of(
                "31 23 0:28 / " + tmp.resolve("sys/fs/cgroup") + " rw,relatime - tmpfs tmpfs rw,mode=755",
                "32 31 0:29 / " + tmp.resolve("sys/fs/cgroup/cpu") + " rw,relatime - cgroup cgroup rw,cpu",
                v1MemoryLine(v1),
                cgroup2Line(unified, "rw,relatime")));
        assertNull(d.reason());
        assertFalse(d.hierarchy().v2());
        assertEquals(v1, d.hierarchy().root());
        assertEquals("v1 memory.limit_in_bytes", d.hierarchy().version());
        assertEquals("cgroup2 at " + unified + " lists no memory controller (cgroup.controllers: hugetlb): the memory "
                + "controller is bound to the v1 hierarchy at " + v1, d.hierarchy().note());
    }

    @Test
    void noMemoryControllerAnywhereIsAReason() throws IOException {
        Path root = v2Root("cpu io pids");
        CgroupHost host = host(List.of(cgroup2Line(root, "rw,relatime")), true);
        assertNull(host.detection().hierarchy());
        assertEquals("cgroup2 at " + root + " lists no memory controller (cgroup.controllers: cpu io pids), and no v1 "
                + "memory hierarchy is mounted", MemoryCgroup.unavailableReason(host));
        assertEquals("no cgroup mount with the memory controller in mountinfo (neither cgroup2 nor v1 memory)",
                MemoryHierarchy.detect(List.of("22 1 253:1 / / rw - ext4 /dev/vda1 rw")).reason());
        IOException e = assertThrows(IOException.class, () -> MemoryCgroup.create(host, LIMIT));
        assertTrue(e.getMessage().startsWith("cannot create a memory cgroup: cgroup2 at "), e.getMessage());
    }

    @Test
    void aReadOnlyMountIsTheSkipReasonAndNothingIsMade() throws IOException {
        Path root = v2Root("memory pids");
        CgroupHost host = host(List.of(cgroup2Line(root, "ro,nosuid,nodev,noexec,relatime")), true);
        assertEquals(root + " is mounted read-only (a container without a delegated cgroup?)",
                MemoryCgroup.unavailableReason(host));
        assertThrows(IOException.class, () -> MemoryCgroup.create(host, LIMIT));
        try (Stream<Path> groups = Files.list(root)) {
            assertTrue(groups.noneMatch(Files::isDirectory), "a group was made on a read-only mount");
        }
    }

    @Test
    void v2EnablesMemoryWritesTheLimitMovesAChildInAndRemovesTheGroup() throws Exception {
        Path root = v2Root("cpu io memory pids");
        CgroupHost host = host(List.of(cgroup2Line(root, "rw,nosuid,nodev,noexec,relatime")), true);
        assertNull(MemoryCgroup.unavailableReason(host));
        Path dir;
        try (MemoryCgroup group = MemoryCgroup.create(host, LIMIT)) {
            dir = group.dir();
            assertEquals(root, dir.getParent());
            assertTrue(dir.getFileName().toString().startsWith("xferbench-" + ProcessHandle.current().pid() + "-"));
            assertEquals("+memory", Files.readString(root.resolve("cgroup.subtree_control")));
            assertEquals(Long.toString(LIMIT), Files.readString(dir.resolve("memory.max")));
            assertEquals(LIMIT, group.enforcedLimitBytes());
            assertEquals("0", Files.readString(dir.resolve("memory.swap.max")), "swap would let the group exceed its limit");
            assertEquals(12288, group.currentBytes());
            assertEquals(16384L, group.peakBytes());
            assertEquals("v2 memory.max", group.version());

            long pid = runWrapped(group);
            assertEquals(List.of(pid), group.members(), "the wrapped child did not write its pid to cgroup.procs");
            procCgroup(pid, "0::/" + dir.getFileName() + "\n");
            procCgroup(ProcessHandle.current().pid(), "0::/user.slice/session-1.scope\n");
            assertTrue(group.hasMember(pid));
            assertFalse(group.hasMember(ProcessHandle.current().pid()));
            Files.writeString(dir.resolve("cgroup.procs"), ""); // the child exited: the kernel takes it out
        }
        assertFalse(Files.exists(dir), "the group outlived close()");
    }

    /**
     * A member just killed can hold its group (EBUSY) until it is reaped: close() waits that out. Seen once when
     * scripts/bench-disk got SIGTERM in its beyond-RAM section ('cleanup: ... xferbench-PID-0: Device or resource busy',
     * group and run directory left); not reproduced in five later runs, so shown here with a kernel that is busy twice.
     */
    @Test
    void closeWaitsOutAGroupBusyWithAMemberBeingReaped() throws Exception {
        Path root = v2Root("cpu io memory pids");
        int[] busy = {2};
        CgroupHost reaping = new CgroupHost(MemoryHierarchy.detect(List.of(cgroup2Line(root, "rw"))),
                Files.createDirectories(tmp.resolve("proc")), new FakeKernel(true) {
                    @Override
                    public void remove(Path group) throws IOException {
                        if (busy[0]-- > 0) {
                            throw new java.nio.file.FileSystemException(group.toString(), null, "Device or resource busy");
                        }
                        super.remove(group);
                    }
                });
        MemoryCgroup group = MemoryCgroup.create(reaping, LIMIT);
        group.close();
        assertFalse(Files.exists(group.dir()), "the group outlived close()");
    }

    @Test
    void v2WithoutMemoryForChildrenFailsAndLeavesNoGroup() throws Exception {
        Path root = v2Root("cpu io memory pids");
        // A kernel that refuses +memory (a non-root group with processes of its own): subtree_control stays empty.
        CgroupHost refusing = new CgroupHost(MemoryHierarchy.detect(List.of(cgroup2Line(root, "rw"))),
                tmp.resolve("proc"), new FakeKernel(true) {
                    @Override
                    public void make(Path group) throws IOException {
                        Files.writeString(root.resolve("cgroup.subtree_control"), "");
                        super.make(group);
                    }
                });
        IOException e = assertThrows(IOException.class, () -> MemoryCgroup.create(refusing, LIMIT));
        assertTrue(e.getMessage().endsWith("has no memory.max (memory controller not enabled for it)"), e.getMessage());
        try (Stream<Path> groups = Files.list(root)) {
            assertTrue(groups.noneMatch(Files::isDirectory), "the half-made group was left behind");
        }
    }

    @Test
    void v1WritesLimitInBytesMovesAChildInAndRemovesTheGroup() throws Exception {
        Path root = v1Root();
        CgroupHost host = host(List.of(v1MemoryLine(root)), false);
        Path dir;
        try (MemoryCgroup group = MemoryCgroup.create(host, LIMIT)) {
            dir = group.dir();
            assertEquals(root, dir.getParent());
            assertEquals(Long.toString(LIMIT), Files.readString(dir.resolve("memory.limit_in_bytes")));
            assertFalse(Files.exists(root.resolve("cgroup.subtree_control")), "v1 has no subtree_control to write");
            assertEquals(8192, group.currentBytes());
            assertEquals(20480L, group.peakBytes());
            assertEquals("v1 memory.limit_in_bytes", group.version());

            long pid = runWrapped(group);
            assertEquals(List.of(pid), group.members());
            // v1: the memory controller's own line counts, not the v2 0:: line or another controller's.
            procCgroup(pid, "9:name=systemd:/\n5:cpu,cpuacct:/" + dir.getFileName() + "\n4:memory:/" + dir.getFileName()
                    + "\n0::/\n");
            procCgroup(ProcessHandle.current().pid(), "5:cpu,cpuacct:/" + dir.getFileName() + "\n4:memory:/other\n0::/"
                    + dir.getFileName() + "\n");
            assertTrue(group.hasMember(pid));
            assertFalse(group.hasMember(ProcessHandle.current().pid()));
            Files.writeString(dir.resolve("cgroup.procs"), "");
        }
        assertFalse(Files.exists(dir), "the group outlived close()");
    }

    @Test
    void removesStaleGroupsOfDeadOwnersOnly() throws Exception {
        Path root = v1Root();
        CgroupHost host = host(List.of(v1MemoryLine(root)), false);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = root.resolve(MemoryCgroup.PREFIX + gone.pid() + "-0");
        host.directories().make(stale);
        Path foreign = Files.createDirectory(root.resolve("system.slice"));
        try (MemoryCgroup live = MemoryCgroup.create(host, LIMIT)) {
            assertFalse(Files.exists(stale), "a stale group of a dead owner survived create()");
            assertTrue(MemoryCgroup.removeStale(host).isEmpty(), "the live owner's group was treated as stale");
            assertTrue(Files.exists(live.dir()));
            assertTrue(Files.exists(foreign), "a group not of our naming was touched");
        }
    }

    @Test
    void mountPointsWithEscapedSpacesAreDecoded() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("cg root"));
        Files.writeString(root.resolve("cgroup.controllers"), "memory\n");
        MemoryHierarchy.Detection d = MemoryHierarchy.detect(List.of(
                cgroup2Line(tmp, "rw").replace(" " + tmp + " ", " " + tmp.resolve("cg\\040root") + " ")));
        assertNotNull(d.hierarchy(), d.reason());
        assertEquals(root, d.hierarchy().root());
    }

    /** Runs {@code true} through the group's wrapper (which writes its pid to cgroup.procs) and returns its pid. */
    private static long runWrapped(MemoryCgroup group) throws Exception {
        Process p = new ProcessBuilder(group.wrap(List.of("true"))).start();
        assertEquals(0, p.waitFor());
        return p.pid();
    }
}
