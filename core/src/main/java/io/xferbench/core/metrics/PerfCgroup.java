package io.xferbench.core.metrics;

import io.xferbench.core.method.Availability;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A cgroup made to count a group of processes with {@code perf stat -a -G} (see
 * {@link PerfSyscallCounter#attachCgroup}): the processes move in when it is made and back to where they were when
 * it is closed, and the directory is removed. Works on the cgroup v2 hierarchy (perf_event is implicit there) or a
 * v1 {@code perf_event} hierarchy, whichever is mounted. A JVM stopped by SIGTERM or Ctrl-C closes its open groups
 * in a shutdown hook (the load bench's row was cut off mid-window and left its group); the name carries the owner
 * ({@link ProcessOwner}: pid and start time, {@code xferbench-perf-<pid>.<start-millis>-<tag>}) so a group of a JVM
 * killed outright is removed, and said so, by the next one made ({@link #removeStale}), even when its pid has been
 * reused since.
 */
public final class PerfCgroup implements AutoCloseable {
    private static final String PREFIX = "xferbench-perf-";
    private static final Set<PerfCgroup> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(PerfCgroup::closeQuietly),
                "xferbench-perf-cgroup-teardown"));
    }

    private final Path root;
    private final Path dir;
    private final boolean v2;
    private final Map<Long, Path> origins = new LinkedHashMap<>();

    private PerfCgroup(Path root, Path dir, boolean v2) {
        this.root = root;
        this.dir = dir;
        this.v2 = v2;
    }

    /** Whether a hierarchy perf can filter by is mounted and writable here, and perf counts syscalls. */
    public static Availability availability() {
        Availability perf = PerfSyscallCounter.availability();
        if (!perf.isAvailable()) {
            return perf;
        }
        Optional<Hierarchy> h = hierarchy();
        if (h.isEmpty()) {
            return Availability.unavailable("no cgroup v2 or v1 perf_event hierarchy is mounted");
        }
        return Files.isWritable(h.get().mount()) ? Availability.AVAILABLE
                : Availability.unavailable("cannot create cgroups under " + h.get().mount() + " (not root?)");
    }

    /** Makes a cgroup named after this process and {@code tag}, and moves {@code pids} (whole processes) into it. */
    public static PerfCgroup create(String tag, List<Long> pids) throws IOException {
        Hierarchy h = hierarchy().orElseThrow(() -> new IOException("no cgroup v2 or v1 perf_event hierarchy is mounted"));
        removeStale(h.mount());
        Path dir = h.mount().resolve(PREFIX + ProcessOwner.current() + "-" + tag);
        Files.createDirectory(dir);
        PerfCgroup group = new PerfCgroup(h.mount(), dir, h.v2());
        LIVE.add(group);
        try {
            for (long pid : pids) {
                group.move(pid);
            }
        } catch (IOException | RuntimeException e) {
            group.close();
            throw e;
        }
        return group;
    }

    /** The path perf's {@code -G} takes: relative to the hierarchy's mount point. */
    public String perfName() {
        return root.relativize(dir).toString();
    }

    private void move(long pid) throws IOException {
        Path origin = currentCgroup(pid);
        if (origin == null) {
            return; // exited meanwhile
        }
        Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
        origins.put(pid, origin);
    }

    /**
     * Moves the processes back where they were, and any process born inside meanwhile (a child such as the server's
     * own perf) to where its parent came from, then removes the cgroup. A process that is exiting can hold the
     * directory for a moment: the removal is retried briefly.
     */
    @Override
    public void close() throws IOException {
        LIVE.remove(this);
        IOException first = null;
        Path fallback = origins.isEmpty() ? root : origins.values().iterator().next();
        try {
            for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                long pid = Long.parseLong(line.strip());
                try {
                    Files.writeString(origins.getOrDefault(pid, fallback).resolve("cgroup.procs"), Long.toString(pid));
                } catch (IOException ex) {
                    first = first == null ? ex : first; // an exiting process cannot be moved: the retries below wait for it
                }
            }
        } catch (java.nio.file.NoSuchFileException gone) {
            return;
        }
        for (int attempt = 0; ; attempt++) {
            try {
                Files.deleteIfExists(dir);
                return;
            } catch (IOException ex) {
                if (attempt == 50) {
                    throw first != null ? first : ex;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            System.err.println("xferbench: could not remove the counting cgroup " + dir + ": " + e.getMessage());
        }
    }

    /** The cgroup directory {@code pid} is in now, in this hierarchy, or null when it has exited. */
    private Path currentCgroup(long pid) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"));
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
        for (String line : lines) {
            String[] f = line.split(":", 3);
            boolean ours = v2 ? f[0].equals("0") : List.of(f[1].split(",")).contains("perf_event");
            if (ours) {
                return root.resolve(f[2].substring(1));
            }
        }
        throw new IOException("process " + pid + " is in no " + (v2 ? "cgroup v2" : "perf_event") + " cgroup");
    }

    /** Removes cgroups left by runs whose process is gone (moving their processes to the root first). */
    static void removeStale(Path mount) {
        List<Path> groups;
        try (Stream<Path> dirs = Files.list(mount)) {
            groups = dirs.filter(p -> p.getFileName().toString().startsWith(PREFIX)).toList();
        } catch (IOException e) {
            return; // best effort: a stale group costs nothing but its directory
        }
        for (Path d : groups) {
            if (!ownerGone(d.getFileName().toString().substring(PREFIX.length()))) {
                continue;
            }
            System.err.println("xferbench: removing cgroup " + d + ", left by a run that was killed");
            try {
                for (String pid : Files.readAllLines(d.resolve("cgroup.procs"))) {
                    Files.writeString(mount.resolve("cgroup.procs"), pid.strip());
                }
                Files.deleteIfExists(d);
            } catch (IOException e) {
                // Best effort, as above; the next group made tries again.
            }
        }
    }

    private static final Pattern OWNED = Pattern.compile("(\\d+)\\.(\\d+)-.+");
    private static final Pattern PID_ONLY = Pattern.compile("(\\d+)-.+");

    /**
     * Whether the owner named at the start of a group's name (after the prefix) is gone. A name from before start
     * times were written, {@code <pid>-<tag>}, can only be judged by its pid, as it was then: gone if no process has
     * it. Anything else is not a name this class made, and is left alone.
     */
    static boolean ownerGone(String owner) {
        try {
            Matcher m = OWNED.matcher(owner);
            if (m.matches()) {
                return ProcessOwner.isGone(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
            }
            m = PID_ONLY.matcher(owner);
            if (m.matches()) {
                return ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
            }
        } catch (NumberFormatException tooLong) {
            // digits past a long: not a name made here
        }
        return false;
    }

    private record Hierarchy(Path mount, boolean v2) {
    }

    /** cgroup v2 if mounted (also the "unified" half of a hybrid setup), else v1's perf_event hierarchy. */
    private static Optional<Hierarchy> hierarchy() {
        List<String> mounts;
        try {
            mounts = Files.readAllLines(Path.of("/proc/mounts"));
        } catch (IOException e) {
            return Optional.empty();
        }
        List<Hierarchy> found = new ArrayList<>();
        for (String line : mounts) {
            String[] f = line.split(" ");
            if (f.length < 4) {
                continue;
            }
            if (f[2].equals("cgroup2")) {
                found.add(0, new Hierarchy(Path.of(f[1]), true));
            } else if (f[2].equals("cgroup") && List.of(f[3].split(",")).contains("perf_event")) {
                found.add(new Hierarchy(Path.of(f[1]), false));
            }
        }
        return found.stream().findFirst();
    }
}
