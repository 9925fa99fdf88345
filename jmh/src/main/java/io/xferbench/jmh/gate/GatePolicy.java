package io.xferbench.jmh.gate;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.registry.DownloadMethods;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the gate checks and how much change it tolerates; stored in the baseline file so the thresholds
 * travel with the numbers they apply to.
 *
 * @param countPattern  secondary results that are kernel counts per op (deterministic: gated hard)
 * @param countTolerance relative tolerance of a count (0.05 = 5%)
 * @param countFloor    absolute tolerance per op, for counts near zero (e.g. read/op of transfer-to)
 * @param ratioParam    the param whose values are compared with each other in one run (the method)
 * @param ruler         the value of {@code ratioParam} every other value is divided by
 * @param ratioDrop     relative drop of a ratio that may be a regression (0.20 = 20%), if the intervals are disjoint
 * @param wakeupPattern counts of syscalls that wait or wake (futex, epoll_wait, poll, sleeps): their number follows
 *                      thread scheduling, not the transfer path, so they are reported and never gated
 * @param pacedMethods  values of {@code ratioParam} whose syscalls follow the socket's pace (non-blocking Netty
 *                      writes split as the socket fills): their counts get the wider paced band
 * @param pacedTolerance relative tolerance for paced methods
 * @param pacedFloor    absolute tolerance per op for paced methods
 */
public record GatePolicy(String countPattern, double countTolerance, double countFloor, String ratioParam, String ruler,
                         double ratioDrop, String wakeupPattern, List<String> pacedMethods, double pacedTolerance,
                         double pacedFloor) {

    public static final GatePolicy DEFAULT = new GatePolicy("^(syscalls|io_uring)([./][^/]*)?/(op|MiB)$", 0.05, 0.5, "method", "stream", 0.20,
            "^syscalls\\.(futex|epoll_wait|epoll_pwait|epoll_pwait2|poll|ppoll|select|pselect6|sched_yield|nanosleep|clock_nanosleep)/op$",
            pacedDownloads(), 1.0, 2.0);

    /** The download methods whose descriptors say they are socket-paced. */
    public static List<String> pacedDownloads() {
        return DownloadMethods.all().stream().filter(m -> m.traits().socketPaced()).map(SenderMethod::id).toList();
    }

    public boolean isWakeup(String metricName) {
        return Pattern.compile(wakeupPattern).matcher(metricName).matches();
    }

    public boolean isPaced(String method) {
        return method != null && pacedMethods.contains(method);
    }

    /** The tolerance band of a count with baseline value {@code base} for {@code method}. */
    public double countBand(double base, String method) {
        return isPaced(method) ? Math.max(pacedTolerance * Math.abs(base), pacedFloor) : countBand(base);
    }

    public boolean isCount(String metricName) {
        return Pattern.compile(countPattern).matcher(metricName).matches();
    }

    /** The tolerance band of a count with baseline value {@code base}. */
    public double countBand(double base) {
        return Math.max(countTolerance * Math.abs(base), countFloor);
    }
}
