package io.xferbench.core.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel settings that move transfer numbers without changing any code: CPU frequency governor, transparent huge
 * pages, the cgroup's memory limit (page cache counts against it), TCP congestion control and socket buffer sysctls,
 * and the I/O scheduler of the data directory's block device. Each is the kernel's own text, or
 * {@code "unavailable"} when the file is not there (a container, another kernel).
 *
 * @param cpuGovernor          cpu0's cpufreq scaling governor
 * @param transparentHugePages the selected THP mode
 * @param cgroupMemoryMax      memory.max of this process's cgroup (v2), e.g. {@code max}
 * @param tcpCongestionControl net.ipv4.tcp_congestion_control
 * @param tcpRmem              net.ipv4.tcp_rmem (min default max)
 * @param tcpWmem              net.ipv4.tcp_wmem
 * @param rmemMax              net.core.rmem_max
 * @param wmemMax              net.core.wmem_max
 * @param blockScheduler       the selected scheduler of the data directory's device; null without a data directory
 */
public record HostTuning(String cpuGovernor, String transparentHugePages, String cgroupMemoryMax, String tcpCongestionControl,
                         String tcpRmem, String tcpWmem, String rmemMax, String wmemMax, String blockScheduler) {
    static final String UNAVAILABLE = "unavailable";

    /**
     * The settings as a reader's phrases ({@code governor performance}, {@code THP madvise}, ..., the TCP sysctls as one),
     * for report headers: one wording for every report, so a far side's can be compared with the client's phrase by phrase.
     */
    public java.util.List<String> phrases() {
        java.util.List<String> phrases = new java.util.ArrayList<>(java.util.List.of("governor " + cpuGovernor,
                "THP " + transparentHugePages, "cgroup memory " + cgroupMemoryMax, "TCP " + tcpCongestionControl + " rmem " + tcpRmem
                        + " wmem " + tcpWmem + " rmem_max " + rmemMax + " wmem_max " + wmemMax));
        if (blockScheduler != null) {
            phrases.add("I/O scheduler " + blockScheduler);
        }
        return phrases;
    }

    /** This machine's settings; {@code device} (nullable) is the data directory's file store name, e.g. /dev/vda1. */
    public static HostTuning read(String device) {
        return new HostTuning(text(Path.of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")),
                selected(text(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"))), memoryLimit(),
                text(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")), spaced(text(Path.of("/proc/sys/net/ipv4/tcp_rmem"))),
                spaced(text(Path.of("/proc/sys/net/ipv4/tcp_wmem"))), text(Path.of("/proc/sys/net/core/rmem_max")),
                text(Path.of("/proc/sys/net/core/wmem_max")), device == null ? null : scheduler(device));
    }

    /**
     * The memory limit of this process's cgroup: v1's memory controller ({@code N:memory:/path}, memory.limit_in_bytes)
     * when it is mounted, else v2's memory.max ({@code 0::/path}).
     */
    private static String memoryLimit() {
        String v2 = UNAVAILABLE;
        for (String line : text(Path.of("/proc/self/cgroup")).split("\n")) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && parts[1].equals("memory")) {
                String v1 = text(Path.of("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"));
                if (!v1.equals(UNAVAILABLE)) {
                    // v1 says "no limit" with the largest page-aligned long; v2 says max.
                    return v1.length() >= 19 ? "max" : v1;
                }
            }
            if (parts.length == 3 && parts[0].equals("0") && parts[1].isEmpty()) {
                v2 = text(Path.of("/sys/fs/cgroup", parts[2], "memory.max"));
            }
        }
        return v2;
    }

    /** A partition has no queue of its own: its disk's is one level up in sysfs. */
    static String scheduler(String device) {
        String name = Path.of(device).getFileName() == null ? device : Path.of(device).getFileName().toString();
        Path block = Path.of("/sys/class/block", name);
        try {
            Path own = block.resolve("queue/scheduler");
            Path parent = block.toRealPath().getParent().resolve("queue/scheduler");
            return selected(text(Files.exists(own) ? own : parent));
        } catch (IOException | RuntimeException e) {
            return UNAVAILABLE;
        }
    }

    /** {@code always [madvise] never} -> {@code madvise}: the kernel marks the selected choice. */
    static String selected(String choices) {
        int open = choices.indexOf('[');
        int close = choices.indexOf(']', open + 1);
        return open >= 0 && close > open ? choices.substring(open + 1, close) : choices;
    }

    private static String spaced(String s) {
        return s.replaceAll("\\s+", " ");
    }

    /** Line by line: Files.readString trusts the size /proc reports for sysctls and returned one byte of them. */
    private static String text(Path file) {
        try {
            return String.join("\n", Files.readAllLines(file)).strip();
        } catch (IOException | RuntimeException e) {
            return UNAVAILABLE;
        }
    }
}
