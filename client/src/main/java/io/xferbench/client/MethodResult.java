package io.xferbench.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.xferbench.core.Sizes;
import java.util.List;
import java.util.Map;

/**
 * One row of results: one method at one size, in one direction. Serialised as-is into the JSON report (schema in
 * docs/results.md). A skipped row has {@code skipped} set and no numbers; a failed one has {@code error}.
 *
 * @param direction           download, upload or proxy
 * @param method              download/upload method id, or relay id for proxy rows
 * @param scenario            proxy rows: small (empty-body exchanges on kept-alive connections), connect (one new
 *                            connection per exchange) or bulk; null for downloads and uploads
 * @param size                bytes per transfer (0: empty-body request/response exchanges)
 * @param relayBuffer         proxy rows: relay buffer the client asked for in the PROXY frame, null = proxy default
 * @param bytes               bytes moved in the measured repeats (warm-up excluded)
 * @param seconds             wall time of the measured repeats
 * @param mibPerSec           median over repeats of (bytes of the repeat / wall time of the repeat)
 * @param transfersPerSec     median over repeats of (transfers of the repeat / wall time of the repeat): req/s
 * @param measuredProcess     whose CPU and syscalls {@code serverCpu}/{@code syscalls} are: server or proxy
 * @param syscalls            that process's syscall counts by name over the measured repeats, or null
 * @param syscallsPerTransfer total syscalls / transfers
 * @param uploadPhasesMillis  upload rows: medians of the server's receive, verify (re-read) and fsync times
 * @param clientCpu           the client's CPU seconds, per GiB, per transfer; context switches (voluntary,
 *                            involuntary, per GiB, per transfer)
 * @param serverCpu           the same for {@code measuredProcess}
 * @param shared              whether other clients' connections worked in the measured process during the window: then
 *                            {@code serverCpu} and {@code syscalls} include their work; null when not measured
 * @param sharedWithConnections how many such connections (a lower bound when the far side could not list them all)
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
record MethodResult(String direction, String method, String scenario, long size, Integer relayBuffer, long bytes, int transfers, double seconds,
                    double mibPerSec, double mibPerSecMin, double mibPerSecMax, List<Double> repeatMibPerSec,
                    Double transfersPerSec, Double transfersPerSecMin, Double transfersPerSecMax,
                    Map<String, Double> latencyMillis, Map<String, Object> clientCpu, Map<String, Object> serverCpu,
                    String measuredProcess, Map<String, Long> syscalls, Double syscallsPerGiB, Double syscallsPerTransfer,
                    Long ioUringSubmissions, String syscallsUnavailable, Map<String, Integer> residencyPermille,
                    Map<String, Double> uploadPhasesMillis, Boolean shared, Integer sharedWithConnections, boolean verified,
                    String skipped, String error) {

    static MethodResult skipped(TransferDriver.Row row, String reason) {
        return new MethodResult(row.direction(), row.method(), row.scenario(), row.size(), row.relayBuffer(), 0, 0, 0, 0, 0, 0, List.of(), null, null, null, Map.of(),
                null, null, null, null, null, null, null, null, null, null, null, null, false, reason, null);
    }

    static MethodResult failed(TransferDriver.Row row, String error) {
        return new MethodResult(row.direction(), row.method(), row.scenario(), row.size(), row.relayBuffer(), 0, 0, 0, 0, 0, 0, List.of(), null, null, null, Map.of(),
                null, null, null, null, null, null, null, null, null, null, null, null, false, null, error);
    }

    /** Method as shown in tables: the relay buffer is part of a proxy row's identity when the client chose one. */
    String label() {
        return relayBuffer == null ? method : method + " " + Sizes.format(relayBuffer);
    }
}
