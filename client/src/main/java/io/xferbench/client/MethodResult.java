package io.xferbench.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One row of results: one method at one size. Serialised as-is into the JSON report (schema in
 * docs/results.md). A skipped row has {@code skipped} set and no numbers; a failed one has {@code error}.
 *
 * @param bytes         bytes moved in the measured repeats (warm-up excluded)
 * @param seconds       wall time of the measured repeats
 * @param mibPerSec     median over repeats of (bytes of the repeat / wall time of the repeat)
 * @param syscalls      server-side syscall counts by name over the measured repeats, or null
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
record MethodResult(String direction, String method, long size, long bytes, int transfers, double seconds,
                    double mibPerSec, double mibPerSecMin, double mibPerSecMax, List<Double> repeatMibPerSec,
                    Map<String, Double> latencyMillis, Map<String, Object> clientCpu, Map<String, Object> serverCpu,
                    Map<String, Long> syscalls, Double syscallsPerGiB, Long ioUringSubmissions, String syscallsUnavailable,
                    Map<String, Integer> residencyPermille, boolean verified, String skipped, String error) {

    static MethodResult skipped(String direction, String method, long size, String reason) {
        return new MethodResult(direction, method, size, 0, 0, 0, 0, 0, 0, List.of(), Map.of(), null, null, null,
                null, null, null, null, false, reason, null);
    }

    static MethodResult failed(String direction, String method, long size, String error) {
        return new MethodResult(direction, method, size, 0, 0, 0, 0, 0, 0, List.of(), Map.of(), null, null, null,
                null, null, null, null, false, null, error);
    }
}
