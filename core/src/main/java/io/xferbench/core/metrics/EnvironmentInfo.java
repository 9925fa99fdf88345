package io.xferbench.core.metrics;

import io.xferbench.nativeio.KernelTlsProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** How a number was obtained: JDK, kernel, CPUs, file system, kernel tuning. Attached to every result file. */
public final class EnvironmentInfo {
    private EnvironmentInfo() {
    }

    /** Facts about this process's machine; {@code dataDir} (nullable) adds its file system. */
    public static MachineDescription describe(Path dataDir) {
        String fileSystem = null;
        String device = null;
        Long blockSize = null;
        if (dataDir != null) {
            try {
                FileStore store = Files.getFileStore(dataDir);
                fileSystem = store.type();
                device = store.name();
                blockSize = store.getBlockSize();
            } catch (IOException | UnsupportedOperationException e) {
                fileSystem = "unknown: " + e.getMessage();
            }
        }
        return new MachineDescription(System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), cpuModel(), cpusAllowed(), memTotal(), hostname(),
                dataDir == null ? null : dataDir.toString(), fileSystem, device, blockSize, HostTuning.read(device),
                PerfSyscallCounter.availability().isAvailable() ? "available"
                        : "unavailable: " + PerfSyscallCounter.availability().unavailableReason(),
                KernelTlsProbe.here().describe());
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
