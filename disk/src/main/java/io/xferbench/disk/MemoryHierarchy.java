package io.xferbench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where this machine's memory controller is mounted, found from mountinfo (proc(5) /proc/self/mountinfo) rather
 * than guessed from /sys/fs/cgroup's layout: a {@code cgroup2} mount whose {@code cgroup.controllers} lists
 * {@code memory} (v2), else a v1 {@code cgroup} mount with the {@code memory} super option. A controller is bound
 * to one hierarchy at a time: on a machine whose memory controller sits in a v1 hierarchy, a cgroup2 mount (e.g.
 * systemd's hybrid /sys/fs/cgroup/unified, or one mounted by hand) exists but lists no {@code memory}, and its
 * groups have no memory.max. {@link #note} says so.
 *
 * @param v2       true for cgroup v2 (memory.max), false for v1 (memory.limit_in_bytes)
 * @param root     the mount point of the hierarchy holding the memory controller: groups are made right under it
 * @param readOnly the mount is read-only (a container without cgroup delegation)
 * @param note     what else mountinfo showed that a reader may wonder about (a cgroup2 mount without memory), or null
 */
public record MemoryHierarchy(boolean v2, Path root, boolean readOnly, String note) {
    public static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    /** One line of mountinfo: the fields this class needs. */
    record Mount(Path mountPoint, List<String> mountOptions, String fsType, List<String> superOptions) {
        /** Parses {@code ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS}. */
        static Mount parse(String line) {
            String[] f = line.trim().split(" ");
            int dash = List.of(f).indexOf("-");
            if (f.length < 6 || dash < 6 || f.length < dash + 4) {
                throw new IllegalArgumentException("not a mountinfo line: " + line);
            }
            return new Mount(Path.of(unescape(f[4])), List.of(f[5].split(",")), f[dash + 1],
                    List.of(f[dash + 3].split(",")));
        }

        /** The kernel writes space, tab, newline and backslash in paths as octal escapes (\040). */
        private static String unescape(String s) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                    i += 3;
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
    }

    /** The hierarchy, or why there is none; exactly one of the two is non-null. */
    public record Detection(MemoryHierarchy hierarchy, String reason) {
    }

    /** Detects from this process's /proc/self/mountinfo. */
    public static Detection detect() {
        try {
            return detect(Files.readAllLines(MOUNTINFO));
        } catch (IOException e) {
            return new Detection(null, "cannot read " + MOUNTINFO + ": " + e.getMessage());
        }
    }

    /** Detects from mountinfo lines; a cgroup2 mount's controllers are read from its cgroup.controllers file. */
    public static Detection detect(List<String> mountinfo) {
        Mount v1 = null;
        List<Mount> cgroup2 = new ArrayList<>();
        for (String line : mountinfo) {
            if (line.isBlank()) {
                continue;
            }
            Mount m = Mount.parse(line);
            if (m.fsType().equals("cgroup2")) {
                cgroup2.add(m);
            } else if (m.fsType().equals("cgroup") && m.superOptions().contains("memory") && v1 == null) {
                v1 = m;
            }
        }
        List<String> withoutMemory = new ArrayList<>();
        for (Mount m : cgroup2) {
            List<String> controllers = controllers(m.mountPoint());
            if (controllers.contains("memory")) {
                return new Detection(new MemoryHierarchy(true, m.mountPoint(), readOnly(m), null), null);
            }
            withoutMemory.add("cgroup2 at " + m.mountPoint() + " lists no memory controller (cgroup.controllers: "
                    + (controllers.isEmpty() ? "none" : String.join(" ", controllers)) + ")");
        }
        if (v1 != null) {
            String note = withoutMemory.isEmpty() ? null
                    : String.join("; ", withoutMemory) + ": the memory controller is bound to the v1 hierarchy at "
                    + v1.mountPoint();
            return new Detection(new MemoryHierarchy(false, v1.mountPoint(), readOnly(v1), note), null);
        }
        return new Detection(null, withoutMemory.isEmpty()
                ? "no cgroup mount with the memory controller in mountinfo (neither cgroup2 nor v1 memory)"
                : String.join("; ", withoutMemory) + ", and no v1 memory hierarchy is mounted");
    }

    private static boolean readOnly(Mount m) {
        return m.mountOptions().contains("ro");
    }

    private static List<String> controllers(Path mountPoint) {
        try {
            String text = Files.readString(mountPoint.resolve("cgroup.controllers")).trim();
            return text.isEmpty() ? List.of() : List.of(text.split("\\s+"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The file that holds a group's limit: memory.max (v2) or memory.limit_in_bytes (v1). */
    public String limitFile() {
        return v2 ? "memory.max" : "memory.limit_in_bytes";
    }

    /** The group's current use (page cache included): memory.current (v2) or memory.usage_in_bytes (v1). */
    public String currentFile() {
        return v2 ? "memory.current" : "memory.usage_in_bytes";
    }

    /** The group's peak use: memory.peak (v2, Linux 5.19+) or memory.max_usage_in_bytes (v1). */
    public String peakFile() {
        return v2 ? "memory.peak" : "memory.max_usage_in_bytes";
    }

    /** E.g. "v1 memory.limit_in_bytes". */
    public String version() {
        return (v2 ? "v2 " : "v1 ") + limitFile();
    }

    /** Whether a /proc/PID/cgroup line is this hierarchy's: {@code 0::PATH} on v2, {@code N:...memory...:PATH} on v1. */
    boolean isOwnLine(String[] fields) {
        return v2 ? fields[0].equals("0") && fields[1].isEmpty() : List.of(fields[1].split(",")).contains("memory");
    }
}
