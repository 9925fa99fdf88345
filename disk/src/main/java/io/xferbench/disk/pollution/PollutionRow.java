package io.xferbench.disk.pollution;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.ArrayList;
import java.util.List;

/**
 * One mode's result. {@code bigBytes} is what the big reader read in all, {@code bigPasses} whole reads of the file
 * (each verified; read again until the during window held enough hot requests). Residency is the hot set's resident share in percent (mincore): before = mean over the before
 * window, during = lowest sample while the big file was read, after = at the end of the after window (as long as the
 * before window, starting when the read ended). Rates and p99 are over all hot requests of each window, and
 * {@code hotRequests*} says how many those were; {@code hotP99Thin} names the windows whose p99 rests on too few of
 * them ({@link ThinPercentile}: under 500, fewer than 5 lie beyond it).
 * {@code recoverySeconds} is from the end of the read to the first sample with residency and rate back within the
 * tolerance of before; null when that did not happen within {@code recoverCapSeconds}. Device figures are the whole
 * device's (/sys/block/DEV/stat) during the read and during the after window. {@code skipped} holds why the mode did
 * not run (then the numbers are 0). {@code hotResidencyEndOfRead} (mincore) and {@code hotResidencyVmtouch} (vmtouch,
 * null without it) are taken back to back the moment the read ended; {@code cgroupPeak} is the group's highest
 * memory use (page cache included) over the whole run so far, null where the kernel does not report it.
 */
public record PollutionRow(String mode, long bigBytes, int bigPasses, double bigMiBPerSec, Boolean bigVerified,
                           double bigResidencyAfter, double hotResidencyBefore, double hotResidencyDuring,
                           double hotResidencyAfter, double hotResidencyEndOfRead, Double hotResidencyVmtouch, double hotReqPerSecBefore, double hotReqPerSecDuring,
                           double hotReqPerSecAfter, double hotP99MsBefore, double hotP99MsDuring,
                           double hotP99MsAfter, long hotRequestsBefore, long hotRequestsDuring,
                           long hotRequestsAfter, long hotErrors, Double recoverySeconds, double recoverCapSeconds,
                           long deviceReadsDuring, long deviceMiBDuring, long deviceReadsAfter, long deviceMiBAfter,
                           long cgroupLimit, Long cgroupPeak, String skipped) {

    /** The windows (before, during, after) whose p99 rests on too few requests to be more than their slowest. */
    @JsonProperty("hotP99Thin")
    public List<String> hotP99Thin() {
        List<String> thin = new ArrayList<>();
        if (ThinPercentile.thin(hotRequestsBefore, 99)) {
            thin.add("before");
        }
        if (ThinPercentile.thin(hotRequestsDuring, 99)) {
            thin.add("during");
        }
        if (ThinPercentile.thin(hotRequestsAfter, 99)) {
            thin.add("after");
        }
        return thin;
    }

    static PollutionRow skipped(String mode, long bigBytes, long cgroupLimit, String reason) {
        return new PollutionRow(mode, bigBytes, 0, 0, null, 0, 0, 0, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0,
                0, 0, 0, cgroupLimit, null, reason);
    }
}
