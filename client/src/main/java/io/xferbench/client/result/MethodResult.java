package io.xferbench.client.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One row of results: one method at one size, in one direction. Serialised into the JSON report (schema in
 * docs/results.md). The parts marked {@link JsonUnwrapped} keep the row's JSON flat, as it was before the parts were
 * split out, so older reports still read back. Whether the row was measured, skipped or failed is its {@link Status};
 * skipped and failed rows carry no numbers. In JSON the status is the flat {@code verified}, {@code skipped} and
 * {@code error} fields reports have always had ({@link Status.Flat}).
 *
 * @param row              which method, size and direction
 * @param throughput       bytes, transfers and rates of the measured rounds
 * @param latencyMillis    client-side latency of one transfer; null when not measured
 * @param clientCpu        the client's CPU and context switches; null when not measured
 * @param serverCpu        the same for {@link Row#measuredProcess()}
 * @param syscallCounts    that process's syscall counts over the measured rounds
 * @param residencyPermille downloads and proxy rows: page-cache residency the transfers started from and left
 * @param uploadPhasesMillis upload rows: medians of the server's receive, verify (re-read) and fsync times
 * @param sharing          whether other clients' connections worked in the measured process during the window
 * @param serverThreadsPeak the most threads {@link Row#measuredProcess()} had alive in the window, io-wq workers
 *                         included (MeasurementReport#threadsPeak); null when not measured or the far side could not count
 * @param status           measured (every transfer's bytes, and CRC32C when asked, matched), skipped or failed
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
// The reading creator below would put its named fields first; rows keep the order they were always written in.
@JsonPropertyOrder({"row", "throughput", "latencyMillis", "clientCpu", "serverCpu", "syscallCounts", "residencyPermille", "uploadPhasesMillis",
        "sharing", "serverThreadsPeak", "flatStatus"})
public record MethodResult(@JsonUnwrapped Row row, @JsonUnwrapped Throughput throughput, Latency latencyMillis, Cpu clientCpu, Cpu serverCpu,
                    @JsonUnwrapped Syscalls syscallCounts, Residency residencyPermille, UploadPhases uploadPhasesMillis,
                    @JsonUnwrapped Sharing sharing, Integer serverThreadsPeak, @JsonIgnore Status status) {

    public MethodResult {
        java.util.Objects.requireNonNull(status, "status");
    }

    /** A row as reports write it: its status as the flat {@code verified}, {@code skipped} and {@code error} fields. */
    @JsonCreator
    private static MethodResult read(@JsonUnwrapped Row row, @JsonUnwrapped Throughput throughput, @JsonProperty("latencyMillis") Latency latencyMillis,
                                     @JsonProperty("clientCpu") Cpu clientCpu, @JsonProperty("serverCpu") Cpu serverCpu,
                                     @JsonUnwrapped Syscalls syscallCounts, @JsonProperty("residencyPermille") Residency residencyPermille,
                                     @JsonProperty("uploadPhasesMillis") UploadPhases uploadPhasesMillis, @JsonUnwrapped Sharing sharing,
                                     @JsonProperty("serverThreadsPeak") Integer serverThreadsPeak, @JsonUnwrapped Status.Flat status) {
        return new MethodResult(row, throughput, latencyMillis, clientCpu, serverCpu, syscallCounts, residencyPermille, uploadPhasesMillis,
                sharing, serverThreadsPeak, status.status());
    }

    /** The status as reports write it, after every other field as it always was. */
    @JsonUnwrapped
    @JsonProperty
    private Status.Flat flatStatus() {
        return status.flat();
    }

    public static MethodResult skipped(Row row, String reason) {
        return unmeasured(row, new Status.Skipped(reason));
    }

    public static MethodResult failed(Row row, String cause) {
        return unmeasured(row, new Status.Failed(cause));
    }

    private static MethodResult unmeasured(Row row, Status status) {
        return new MethodResult(row, Throughput.NONE, null, null, null, Syscalls.NONE, null, null, Sharing.UNKNOWN, null, status);
    }

    /** Whether the row has figures: neither skipped nor failed. */
    public boolean measured() {
        return status() instanceof Status.Measured;
    }

    /**
     * What became of a row. Only a measured row has figures, and every transfer of it was verified: a transfer that was
     * not fails the row.
     */
    public sealed interface Status {
        /** Every round ran and every transfer's bytes (and CRC32C when asked) matched. */
        record Measured() implements Status {
        }

        /** The method cannot run here (no io_uring, O_DIRECT refused, a size past its limit). */
        record Skipped(String reason) implements Status {
            public Skipped {
                java.util.Objects.requireNonNull(reason, "reason");
            }
        }

        /** A transfer failed, was not verified, or the row could not be made (merge). */
        record Failed(String cause) implements Status {
            public Failed {
                java.util.Objects.requireNonNull(cause, "cause");
            }
        }

        Status MEASURED = new Measured();

        /** The fields reports write: {@code verified}, {@code skipped} and {@code error}. */
        default Flat flat() {
            return switch (this) {
                case Measured m -> new Flat(true, null, null);
                case Skipped s -> new Flat(false, s.reason(), null);
                case Failed f -> new Flat(false, null, f.cause());
            };
        }

        /**
         * A status as reports write it: measured rows {@code verified: true}, skipped rows their reason, failed rows their
         * error (the other two null, verified false).
         */
        record Flat(boolean verified, String skipped, String error) {
            /**
             * The status these fields say. A row that is neither skipped nor failed yet not verified never came out of
             * a client; read back, it is failed rather than shown as measured.
             */
            Status status() {
                if (error != null) {
                    return new Failed(error);
                }
                if (skipped != null) {
                    return new Skipped(skipped);
                }
                return verified ? MEASURED : new Failed("not verified");
            }
        }
    }

    /** Method as shown in tables: the relay buffer is part of a proxy row's identity when the client chose one. */
    public String label() {
        return row.relayBuffer() == null ? row.method() : row.method() + " " + Sizes.format(row.relayBuffer());
    }

    /**
     * What a row is.
     *
     * @param direction   download, upload, or relay (a proxy row: written "proxy" in reports)
     * @param method      download/upload method id, or relay id for proxy rows
     * @param scenario    proxy rows: which exchange; null for downloads and uploads
     * @param size        bytes per transfer (0: empty-body request/response exchanges)
     * @param relayBuffer proxy rows: relay buffer the client asked for in the PROXY frame, null = the proxy's default
     */
    // measuredProcess is derived from the direction; reports carry it for readers, so reading it back is allowed.
    @JsonIgnoreProperties(value = "measuredProcess", allowGetters = true)
    public record Row(@JsonSerialize(using = DirectionJson.Writer.class) @JsonDeserialize(using = DirectionJson.Reader.class) Direction direction,
               String method, Scenario scenario, long size, Integer relayBuffer) {

        /** A download or upload row: no scenario, no relay buffer. */
        public static Row served(Direction direction, String method, long size) {
            return new Row(direction, method, null, size, null);
        }

        /** Whose window the far-side columns are: the proxy's for proxy rows, else the server's. */
        @JsonProperty("measuredProcess")
        public String measuredProcess() {
            return direction == Direction.RELAY ? "proxy" : "server";
        }
    }

    /** Proxy scenarios; written in reports in lower case. */
    public enum Scenario {
        /** Empty-body exchanges (0-byte downloads) on kept-alive connections. */
        SMALL,
        /** A new connection per empty-body exchange. */
        CONNECT,
        /** Bodies downloaded through the proxy on kept-alive connections. */
        BULK;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Scenario of(String id) {
            for (Scenario s : values()) {
                if (s.id().equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("--scenario takes small, connect and bulk, not '" + id + "'");
        }
    }

    /**
     * What the measured rounds moved and how fast (warm-up excluded).
     *
     * @param seconds         wall time of the measured rounds
     * @param mibPerSec       median over rounds of (bytes of the round / wall time of the round)
     * @param transfersPerSec median over rounds of (transfers of the round / wall time of the round): req/s; null in
     *                        reports older than this field
     * @param startedAtEpochMicros wall clock (µs since the epoch) when the first measured round started, and
     * @param endedAtEpochMicros   when the last one ended: what {@code client merge} lines cooperating clients' rows up
     *                             by; null in reports older than these fields and in rows that moved nothing
     */
    public record Throughput(long bytes, int transfers, double seconds, double mibPerSec, double mibPerSecMin, double mibPerSecMax,
                      List<Double> repeatMibPerSec, Double transfersPerSec, Double transfersPerSecMin, Double transfersPerSecMax,
                      Long startedAtEpochMicros, Long endedAtEpochMicros) {
        /** Nothing moved: skipped and failed rows, written as zeros as before. */
        static final Throughput NONE = new Throughput(0, 0, 0, 0, 0, 0, List.of(), null, null, null);

        /** Without the wall-clock span (computed rows; the driver adds it with {@link #measuredBetween}). */
        public Throughput(long bytes, int transfers, double seconds, double mibPerSec, double mibPerSecMin, double mibPerSecMax,
                   List<Double> repeatMibPerSec, Double transfersPerSec, Double transfersPerSecMin, Double transfersPerSecMax) {
            this(bytes, transfers, seconds, mibPerSec, mibPerSecMin, mibPerSecMax, repeatMibPerSec, transfersPerSec, transfersPerSecMin,
                    transfersPerSecMax, null, null);
        }

        /**
         * One figure, no spread: a single round (--repeat 1) or a merged row (one rate over the clients' window). Its
         * min and max equal the median, which "15 [15..15]" showed as a range of zero width.
         */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public boolean single() {
            return repeatMibPerSec != null && repeatMibPerSec.size() == 1;
        }

        public Throughput measuredBetween(long startedAtEpochMicros, long endedAtEpochMicros) {
            return new Throughput(bytes, transfers, seconds, mibPerSec, mibPerSecMin, mibPerSecMax, repeatMibPerSec, transfersPerSec,
                    transfersPerSecMin, transfersPerSecMax, startedAtEpochMicros, endedAtEpochMicros);
        }
    }

    /** This row with the wall-clock span of its measured rounds; a row that moved nothing stays as it is. */
    public MethodResult measuredBetween(long startedAtEpochMicros, long endedAtEpochMicros) {
        if (!measured()) {
            return this;
        }
        return new MethodResult(row, throughput.measuredBetween(startedAtEpochMicros, endedAtEpochMicros), latencyMillis, clientCpu,
                serverCpu, syscallCounts, residencyPermille, uploadPhasesMillis, sharing, serverThreadsPeak, status);
    }

    /** Client-side latency of one transfer, request written → last byte read, in milliseconds. */
    public record Latency(double p50, double p99, double max) {
    }

    /**
     * CPU time (getrusage, the whole process) and context switches (voluntary: blocked; involuntary: preempted) over the
     * window: in total, per GiB and per transfer. A per-GiB or per-transfer figure is null when there is nothing to divide by.
     */
    public record Cpu(double userSeconds, double systemSeconds, Double userSecondsPerGiB, Double systemSecondsPerGiB,
               Double userMicrosPerTransfer, Double systemMicrosPerTransfer, long voluntarySwitches, long involuntarySwitches,
               Double contextSwitchesPerGiB, Double contextSwitchesPerTransfer) {

        public static Cpu of(double user, double system, long voluntary, long involuntary, double gib, int transfers) {
            long switches = voluntary + involuntary;
            return new Cpu(user, system, gib > 0 ? user / gib : null, gib > 0 ? system / gib : null,
                    transfers > 0 ? user * 1e6 / transfers : null, transfers > 0 ? system * 1e6 / transfers : null,
                    voluntary, involuntary, gib > 0 ? switches / gib : null, transfers > 0 ? switches / (double) transfers : null);
        }
    }

    /**
     * The measured process's syscalls over the window; all null (but {@code unavailable}) when not counted.
     *
     * @param byName             counts by syscall name, {@code other} = not in the named list
     * @param perGiB             total / GiB moved; null when no bytes moved
     * @param perTransfer        total / transfers
     * @param ioUringSubmissions io_uring SQEs
     * @param unavailable        why they were not counted
     */
    public record Syscalls(@JsonProperty("syscalls") Map<String, Long> byName, @JsonProperty("syscallsPerGiB") Double perGiB,
                    @JsonProperty("syscallsPerTransfer") Double perTransfer, Long ioUringSubmissions,
                    @JsonProperty("syscallsUnavailable") String unavailable) {
        public static final Syscalls NONE = new Syscalls(null, null, null, null, null);

        public static Syscalls unavailable(String why) {
            return new Syscalls(null, null, null, null, why);
        }
    }

    /** Page-cache residency in permille (-1 unknown), minimum over rounds, as each transfer found and left its file. */
    public record Residency(int beforeMin, int afterMin) {
    }

    /** Upload rows: medians in ms of the server's receive, verify (re-read) and fsync times; null when not measured. */
    public record UploadPhases(Double receiveP50, Double verifyP50, Double fsyncP50) {
    }

    /**
     * Whether other clients' connections worked in the measured process during the window: then its CPU and syscalls
     * include their work.
     *
     * @param shared                null when not measured
     * @param sharedWithConnections how many such connections (a lower bound when the far side could not list them all)
     */
    public record Sharing(Boolean shared, Integer sharedWithConnections) {
        public static final Sharing UNKNOWN = new Sharing(null, null);

        /** Known to be shared (not named isShared: Jackson would take that for a second "shared" property). */
        public boolean wasShared() {
            return Boolean.TRUE.equals(shared);
        }
    }
}
