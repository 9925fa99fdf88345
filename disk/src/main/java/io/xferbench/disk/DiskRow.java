package io.xferbench.disk;

/**
 * One row of the engine table. {@code verified} is null for fio (it cannot check our content);
 * {@code ratio} is Java/fio MiB/s on a Java row with a fio twin; {@code cgroupLimit} is 0 outside a cgroup;
 * {@code syscallsPerOp} is counted by perf (raw_syscalls:sys_enter) on the reading process, null where perf cannot;
 * {@code deviceMicrosPerRead} is the device's mean read latency as the block layer saw it (/sys/block/…/stat), so a
 * row slower than its twin at the same depth shows whether the time went to the device or to the reader;
 * {@code repeats} is how many times the Java row and its twin ran, alternately ({@code --repeat}); the row shown is
 * the pair with the median ratio, {@code ratioMin}/{@code ratioMax} the spread of the pairs' ratios (equal to
 * {@code ratio} for one pair), and a Java row is verified only if every repeat was;
 * {@code warmUpSeconds} is how long a Java row's engine ran untimed before it ({@link EngineWarmUp}) and
 * {@code jitSettled} whether the JIT was quiet by then (both null for fio and skipped rows);
 * {@code skipped} holds the reason when the row did not run (then the numbers are 0).
 */
public record DiskRow(String tool, String engine, String pattern, int blockSize, int queueDepth, boolean direct,
                      String cache, long span, long cgroupLimit, long ops, double iops, double mibPerSec,
                      double p50Micros, double p99Micros, double contextSwitchesPerGiB, double cpuSecondsPerGiB,
                      long deviceReads, long deviceMiB, double deviceMicrosPerRead, Double syscallsPerOp,
                      Boolean verified, Double ratio, Double ratioMin, Double ratioMax, int repeats,
                      Double warmUpSeconds, Boolean jitSettled, String skipped) {

    public static DiskRow skipped(String tool, String engine, String pattern, int blockSize, int depth, boolean direct,
                                  String cache, long span, long cgroupLimit, String reason) {
        return new DiskRow(tool, engine, pattern, blockSize, depth, direct, cache, span, cgroupLimit, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, null, null, null, null, null, 1, null, null, reason);
    }

    public DiskRow withRatio(Double value) {
        return new DiskRow(tool, engine, pattern, blockSize, queueDepth, direct, cache, span, cgroupLimit, ops, iops,
                mibPerSec, p50Micros, p99Micros, contextSwitchesPerGiB, cpuSecondsPerGiB, deviceReads, deviceMiB,
                deviceMicrosPerRead, syscallsPerOp, verified, value, value, value, repeats, warmUpSeconds, jitSettled,
                skipped);
    }

    public DiskRow withCgroupLimit(long limit) {
        return new DiskRow(tool, engine, pattern, blockSize, queueDepth, direct, cache, span, limit, ops, iops,
                mibPerSec, p50Micros, p99Micros, contextSwitchesPerGiB, cpuSecondsPerGiB, deviceReads, deviceMiB,
                deviceMicrosPerRead, syscallsPerOp, verified, ratio, ratioMin, ratioMax, repeats, warmUpSeconds,
                jitSettled, skipped);
    }

    /** This row as the representative of {@code repeats} runs: their ratios' spread and whether all verified. */
    public DiskRow asRepresentativeOf(int repeats, Double min, Double max, Boolean allVerified) {
        return new DiskRow(tool, engine, pattern, blockSize, queueDepth, direct, cache, span, cgroupLimit, ops, iops,
                mibPerSec, p50Micros, p99Micros, contextSwitchesPerGiB, cpuSecondsPerGiB, deviceReads, deviceMiB,
                deviceMicrosPerRead, syscallsPerOp, allVerified, ratio, min, max, repeats, warmUpSeconds, jitSettled,
                skipped);
    }
}
