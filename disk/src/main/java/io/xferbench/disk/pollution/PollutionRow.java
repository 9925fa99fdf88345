package io.xferbench.disk.pollution;

/**
 * One mode's result. Residency is the hot set's resident share in percent (mincore): before = mean over the before
 * window, during = lowest sample while the big file was read, after = at the end of the after window (as long as the
 * before window, starting when the read ended). Rates and p99 are over all hot requests of each window, and
 * {@code hotRequests*} says how many those were (under 100 the p99 is their largest latency).
 * {@code recoverySeconds} is from the end of the read to the first sample with residency and rate back within the
 * tolerance of before; null when that did not happen within {@code recoverCapSeconds}. Device figures are the whole
 * device's (/sys/block/DEV/stat) during the read and during the after window. {@code skipped} holds why the mode did
 * not run (then the numbers are 0). {@code hotResidencyEndOfRead} (mincore) and {@code hotResidencyVmtouch} (vmtouch,
 * null without it) are taken back to back the moment the read ended; {@code cgroupPeak} is the group's highest
 * memory use (page cache included) over the whole run so far, null where the kernel does not report it.
 */
public record PollutionRow(String mode, long bigBytes, double bigMiBPerSec, Boolean bigVerified,
                           double bigResidencyAfter, double hotResidencyBefore, double hotResidencyDuring,
                           double hotResidencyAfter, double hotResidencyEndOfRead, Double hotResidencyVmtouch, double hotReqPerSecBefore, double hotReqPerSecDuring,
                           double hotReqPerSecAfter, double hotP99MsBefore, double hotP99MsDuring,
                           double hotP99MsAfter, long hotRequestsBefore, long hotRequestsDuring,
                           long hotRequestsAfter, long hotErrors, Double recoverySeconds, double recoverCapSeconds,
                           long deviceReadsDuring, long deviceMiBDuring, long deviceReadsAfter, long deviceMiBAfter,
                           long cgroupLimit, Long cgroupPeak, String skipped) {

    static PollutionRow skipped(String mode, long bigBytes, long cgroupLimit, String reason) {
        return new PollutionRow(mode, bigBytes, 0, null, 0, 0, 0, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0,
                0, 0, 0, cgroupLimit, null, reason);
    }
}
