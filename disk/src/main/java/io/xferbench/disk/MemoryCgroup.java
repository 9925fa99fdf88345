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

    private MemoryCgroup(Path dir, long limitBytes, String version) {
        this.dir = dir;
        this.limitBytes = limitBytes;
        this.version = version;
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
            return new MemoryCgroup(dir, limitBytes, v2 ? "v2 memory.max" : "v1 memory.limit_in_bytes");
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
