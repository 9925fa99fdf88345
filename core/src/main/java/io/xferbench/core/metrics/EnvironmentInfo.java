package io.xferbench.core.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** How a number was obtained: JDK, kernel, CPUs, file system, kernel tuning. Attached to every result file. */
public final class EnvironmentInfo {
    private EnvironmentInfo() {
    }

    /** Facts about this process's machine; {@code dataDir} (nullable) adds its file system. */
    public static Map<String, Object> describe(Path dataDir) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
        env.put("jvm", System.getProperty("java.vm.name"));
        env.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        env.put("cpus", Runtime.getRuntime().availableProcessors());
        env.put("cpuModel", cpuModel());
        // A pinned run (taskset, cgroup cpusets) says so: two processes on one CPU measure something else.
        env.put("cpusAllowed", cpusAllowed());
        env.put("memoryBytes", memTotal());
        env.put("host", hostname());
        String device = null;
        if (dataDir != null) {
            env.put("dataDir", dataDir.toString());
            try {
                FileStore store = Files.getFileStore(dataDir);
                env.put("fileSystem", store.type());
                env.put("fileSystemDevice", store.name());
                env.put("fileSystemBlockSize", store.getBlockSize());
                device = store.name();
            } catch (IOException | UnsupportedOperationException e) {
                env.put("fileSystem", "unknown: " + e.getMessage());
            }
        }
        env.put("tuning", HostTuning.read(device));
        env.put("perfSyscallCounting", PerfSyscallCounter.availability().isAvailable() ? "available"
                : "unavailable: " + PerfSyscallCounter.availability().unavailableReason());
        return env;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String cpusAllowed() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long memTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(l -> l.startsWith("MemTotal:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024)
                    .findFirst().orElse(-1);
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
