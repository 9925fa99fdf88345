package io.xferbench.core.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How a number was obtained, on one machine: JDK, kernel, CPUs, memory, host, the data directory's file system and the
 * kernel settings that move the numbers ({@link EnvironmentInfo#describe}). Attached to every result file as the
 * {@code client}, {@code server} or {@code proxy} environment (docs/results.md).
 *
 * @param cpusAllowed the CPUs the process may run on: a pinned run (taskset, cgroup cpusets) says so
 * @param memoryBytes MemTotal, -1 unknown
 * @param dataDir     the data directory when one was given; then its file system (or why not), device and block size;
 *                    these four are not written without one
 * @param tuning      kernel settings (HostTuning)
 * @param kernelTls   whether the kernel can encrypt TLS itself (kTLS, TCP_ULP "tls"): {@code available} or
 *                    {@code unavailable: REASON}; absent from reports older than this field
 */
public record MachineDescription(String jdk, String jvm, String kernel, int cpus, String cpuModel, String cpusAllowed, long memoryBytes,
                                 String host, @JsonInclude(JsonInclude.Include.NON_NULL) String dataDir,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) String fileSystem,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) String fileSystemDevice,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) Long fileSystemBlockSize,
                                 HostTuning tuning, String perfSyscallCounting,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) String kernelTls) {
}
