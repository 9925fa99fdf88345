package io.xferbench.disk;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A memory cgroup of our own for one run: {@code xferbench-<ownerPid>-<n>} right under the hierarchy that holds the
 * memory controller ({@link MemoryHierarchy}: cgroup v2 {@code memory.max}, or v1 {@code memory.limit_in_bytes}).
 * Children join it through {@link #wrap} (a shell writes its own pid to cgroup.procs, then execs the command, so
 * nothing runs outside the limit). {@link #close} removes it; groups of our naming whose owner pid is dead (a killed
 * run) are removed by {@link #removeStale} before a new one is made. Page cache a member reads is charged to the
 * group, so the limit bounds the cache the reader may use.
 */
public final class MemoryCgroup implements AutoCloseable {
    static final String PREFIX = "xferbench-";
    static final long REMOVE_WAIT_MILLIS = 3000;
    private static int counter;

    private final CgroupHost host;
    private final MemoryHierarchy hierarchy;
    private final Path dir;
    private final long limitBytes;

    private MemoryCgroup(CgroupHost host, Path dir, long limitBytes) {
        this.host = host;
        this.hierarchy = host.detection().hierarchy();
        this.dir = dir;
        this.limitBytes = limitBytes;
    }

    /** Null when a memory cgroup can be made on this machine, else why not. */
    public static String unavailableReason() {
        return unavailableReason(CgroupHost.system());
    }

    /** Null when a memory cgroup can be made on {@code host}, else why not. */
    public static String unavailableReason(CgroupHost host) {
        MemoryHierarchy h = host.detection().hierarchy();
        if (h == null) {
            return host.detection().reason();
        }
        if (h.readOnly()) {
            return h.root() + " is mounted read-only (a container without a delegated cgroup?)";
        }
        if (!Files.isWritable(h.root())) {
            return h.root() + " is not writable (run as root or delegate a cgroup to this user)";
        }
        return null;
    }

    /** A group on this machine. */
    public static MemoryCgroup create(long limitBytes) throws IOException {
        return create(CgroupHost.system(), limitBytes);
    }

    public static synchronized MemoryCgroup create(CgroupHost host, long limitBytes) throws IOException {
        String reason = unavailableReason(host);
        if (reason != null) {
            throw new IOException("cannot create a memory cgroup: " + reason);
        }
        MemoryHierarchy h = host.detection().hierarchy();
        removeStale(host);
        if (h.v2()) {
            enableMemoryForChildren(h.root());
        }
        Path dir = h.root().resolve(PREFIX + ProcessHandle.current().pid() + "-" + (counter++));
        host.directories().make(dir);
        try {
            Path limitFile = dir.resolve(h.limitFile());
            if (!Files.exists(limitFile)) {
                throw new IOException(dir + " has no " + h.limitFile() + " (memory controller not enabled for it)");
            }
            Files.writeString(limitFile, Long.toString(limitBytes));
            if (h.v2() && Files.exists(dir.resolve("memory.swap.max"))) {
                Files.writeString(dir.resolve("memory.swap.max"), "0");
            }
            // The kernel rounds the limit down to whole pages; anything else means it was not applied.
            long enforced = readLong(limitFile);
            if (enforced != limitBytes / 4096 * 4096) {
                throw new IOException(limitFile + " reads " + enforced + " after writing " + limitBytes);
            }
            return new MemoryCgroup(host, dir, limitBytes);
        } catch (IOException | RuntimeException e) {
            host.directories().remove(dir);
            throw e;
        }
    }

    /**
     * v2 gives a child group memory.* files only when its parent lists memory in cgroup.subtree_control; the root
     * group may enable it at any time (the no-internal-process rule exempts the root), a delegated non-root group
     * only while it has no processes of its own, which then fails here with the kernel's reason.
     */
    private static void enableMemoryForChildren(Path root) throws IOException {
        Path subtree = root.resolve("cgroup.subtree_control");
        if (List.of(Files.readString(subtree).trim().split("\\s+")).contains("memory")) {
            return;
        }
        try {
            Files.writeString(subtree, "+memory");
        } catch (IOException e) {
            throw new IOException("cannot enable the memory controller for groups under " + root + " (" + subtree
                    + "): " + e.getMessage(), e);
        }
    }

    /** Removes groups named xferbench-PID-N under the memory hierarchy whose PID is no longer alive. */
    public static List<Path> removeStale(CgroupHost host) throws IOException {
        MemoryHierarchy h = host.detection().hierarchy();
        List<Path> removed = new ArrayList<>();
        if (h == null) {
            return removed;
        }
        try (DirectoryStream<Path> groups = Files.newDirectoryStream(h.root(), PREFIX + "*")) {
            for (Path group : groups) {
                String[] parts = group.getFileName().toString().substring(PREFIX.length()).split("-");
                long pid;
                try {
                    pid = Long.parseLong(parts[0]);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                host.directories().remove(group);
                removed.add(group);
            }
        }
        return removed;
    }

    public Path dir() {
        return dir;
    }

    public long limitBytes() {
        return limitBytes;
    }

    public MemoryHierarchy hierarchy() {
        return hierarchy;
    }

    /** E.g. "v1 memory.limit_in_bytes". */
    public String version() {
        return hierarchy.version();
    }

    /** The limit as the kernel holds it (memory.max or memory.limit_in_bytes), in bytes. */
    public long enforcedLimitBytes() throws IOException {
        return readLong(dir.resolve(hierarchy.limitFile()));
    }

    /** The group's memory use now (memory.current, v1 memory.usage_in_bytes): page cache and the members' own. */
    public long currentBytes() throws IOException {
        return readLong(dir.resolve(hierarchy.currentFile()));
    }

    /**
     * Highest memory use of the group so far (v2 memory.peak, v1 memory.max_usage_in_bytes): page cache and the
     * members' own memory. Null where the kernel has no such file (v2 before 5.19).
     */
    public Long peakBytes() throws IOException {
        Path peak = dir.resolve(hierarchy.peakFile());
        return Files.exists(peak) ? readLong(peak) : null;
    }

    /** The pids in the group now (cgroup.procs). */
    public List<Long> members() throws IOException {
        Path procs = dir.resolve("cgroup.procs");
        if (!Files.exists(procs)) {
            return List.of();
        }
        return Files.readAllLines(procs).stream().filter(l -> !l.isBlank()).map(l -> Long.parseLong(l.trim())).toList();
    }

    /** Whether {@code pid} is in this group by its own /proc/PID/cgroup (the memory hierarchy's line). */
    public boolean hasMember(long pid) throws IOException {
        String path = "/" + hierarchy.root().relativize(dir);
        for (String line : Files.readAllLines(host.proc().resolve(Long.toString(pid)).resolve("cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && hierarchy.isOwnLine(f)) {
                return f[2].equals(path);
            }
        }
        return false;
    }

    private static long readLong(Path file) throws IOException {
        String v = Files.readString(file).trim();
        return v.equals("max") ? Long.MAX_VALUE : Long.parseLong(v);
    }

    /** The command run as a member of this group from its first instruction. */
    public List<String> wrap(List<String> command) {
        List<String> c = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                dir.resolve("cgroup.procs").toString()));
        c.addAll(command);
        return c;
    }

    /** Kills every member (SIGKILL) and waits up to 10 s for the group to be empty. */
    public void killMembers() throws IOException, InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<Long> pids = members();
            if (pids.isEmpty()) {
                return;
            }
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            Thread.sleep(100);
        }
    }

    /**
     * Removes the group; its members must have exited first (the kernel refuses with EBUSY otherwise). A member just
     * killed can hold the group until its parent has reaped it, after it left cgroup.procs (a Ctrl-C or SIGTERM in the
     * beyond-RAM section left the group behind that way): EBUSY is retried for up to {@link #REMOVE_WAIT_MILLIS}.
     */
    @Override
    public void close() throws IOException {
        long deadline = System.nanoTime() + REMOVE_WAIT_MILLIS * 1_000_000L;
        while (true) {
            try {
                host.directories().remove(dir);
                return;
            } catch (FileSystemException e) {
                if (System.nanoTime() > deadline || e.getReason() == null || !e.getReason().contains("busy")) {
                    throw e;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while removing " + dir, e);
            }
        }
    }
}
