package io.xferbench.disk;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A memory cgroup of our own for one run: {@code xferbench-<ownerPid>-<n>} with {@code memory.max} (cgroup v2,
 * /sys/fs/cgroup is cgroup2) or {@code memory.limit_in_bytes} (v1, /sys/fs/cgroup/memory). Children join it
 * through {@link #wrap} (a shell writes its own pid to cgroup.procs, then execs the command, so nothing runs
 * outside the limit). {@link #close} removes it; groups of our naming whose owner pid is dead (a killed run)
 * are removed by {@link #removeStale} before a new one is made. Page cache a member reads is charged to the
 * group, so the limit bounds the cache the reader may use.
 */
public final class MemoryCgroup implements AutoCloseable {
    static final String PREFIX = "xferbench-";
    private static int counter;

    private final Path dir;
    private final long limitBytes;
    private final String version;
    private final boolean v2;

    private MemoryCgroup(Path dir, long limitBytes, String version, boolean v2) {
        this.dir = dir;
        this.limitBytes = limitBytes;
        this.version = version;
        this.v2 = v2;
    }

    /** Null when a memory cgroup can be made under {@code root} here, else why not. */
    public static String unavailableReason(Path root) {
        Path parent = parent(root);
        if (parent == null) {
            return "no memory cgroup hierarchy under " + root + " (neither cgroup2 memory.max nor v1 memory/)";
        }
        if (!Files.isWritable(parent)) {
            return parent + " is not writable (run as root or delegate a cgroup to this user)";
        }
        return null;
    }

    /** Default root /sys/fs/cgroup. */
    public static MemoryCgroup create(long limitBytes) throws IOException {
        return create(Path.of("/sys/fs/cgroup"), limitBytes);
    }

    public static synchronized MemoryCgroup create(Path root, long limitBytes) throws IOException {
        String reason = unavailableReason(root);
        if (reason != null) {
            throw new IOException("cannot create a memory cgroup: " + reason);
        }
        Path parent = parent(root);
        removeStale(root);
        boolean v2 = isV2(root);
        Path dir = parent.resolve(PREFIX + ProcessHandle.current().pid() + "-" + (counter++));
        Files.createDirectory(dir);
        try {
            Path limitFile = dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes");
            Files.writeString(limitFile, Long.toString(limitBytes));
            if (v2 && Files.exists(dir.resolve("memory.swap.max"))) {
                Files.writeString(dir.resolve("memory.swap.max"), "0");
            }
            // The kernel rounds the limit down to whole pages; anything else means it was not applied.
            long enforced = readLong(limitFile);
            if (enforced != limitBytes / 4096 * 4096) {
                throw new IOException(limitFile + " reads " + enforced + " after writing " + limitBytes);
            }
            return new MemoryCgroup(dir, limitBytes, v2 ? "v2 memory.max" : "v1 memory.limit_in_bytes", v2);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
    }

    /** Removes groups named xferbench-PID-N under the memory hierarchy whose PID is no longer alive. */
    public static List<Path> removeStale(Path root) throws IOException {
        Path parent = parent(root);
        List<Path> removed = new ArrayList<>();
        if (parent == null) {
            return removed;
        }
        try (DirectoryStream<Path> groups = Files.newDirectoryStream(parent, PREFIX + "*")) {
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
                rmdir(group);
                removed.add(group);
            }
        }
        return removed;
    }

    static boolean isV2(Path root) {
        return Files.exists(root.resolve("cgroup.controllers"));
    }

    private static Path parent(Path root) {
        if (isV2(root)) {
            return root;
        }
        Path v1 = root.resolve("memory");
        return Files.exists(v1.resolve("memory.limit_in_bytes")) ? v1 : null;
    }

    public Path dir() {
        return dir;
    }

    public long limitBytes() {
        return limitBytes;
    }

    public String version() {
        return version;
    }

    /** The limit as the kernel holds it (memory.max or memory.limit_in_bytes), in bytes. */
    public long enforcedLimitBytes() throws IOException {
        return readLong(dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"));
    }

    /**
     * Highest memory use of the group so far (v2 memory.peak, v1 memory.max_usage_in_bytes): page cache and the
     * members' own memory. Null where the kernel has no such file (v2 before 5.19).
     */
    public Long peakBytes() throws IOException {
        Path peak = dir.resolve(v2 ? "memory.peak" : "memory.max_usage_in_bytes");
        return Files.exists(peak) ? readLong(peak) : null;
    }

    /** Whether {@code pid} is in this group by its own /proc/PID/cgroup (the memory controller's line). */
    public boolean hasMember(long pid) throws IOException {
        String path = "/" + dir.getFileName();
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] f = line.split(":", 3);
            boolean memoryLine = v2 ? f[0].equals("0") && f[1].isEmpty() : List.of(f[1].split(",")).contains("memory");
            if (memoryLine) {
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

    @Override
    public void close() throws IOException {
        rmdir(dir);
    }

    /** rmdir of a cgroup fails with EBUSY while a member lives: members must have exited first. */
    private static void rmdir(Path group) throws IOException {
        // cgroupfs directories hold only control files, which rmdir removes with the group itself.
        Files.deleteIfExists(group);
    }
}
