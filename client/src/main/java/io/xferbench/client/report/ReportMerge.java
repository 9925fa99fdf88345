package io.xferbench.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.xferbench.client.result.MethodResult;
import io.xferbench.client.result.RowName;
import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.TypeConversionException;

/**
 * The reports of cooperating clients (each {@code --client-id I/N}) as one: per row, the bytes and transfers of all of
 * them over the union of their measured spans, so the merged MiB/s is what the server delivered to all clients together
 * in that window (a lower bound when the clients did not start together: the overlap says how well they did). No I/O.
 *
 * <p>Only what adds up is merged: client CPU (separate processes). The far side's CPU and syscalls are not: each
 * client's server window also saw the other clients' transfers, so adding them would count them twice; they stay in
 * each client's own report.
 */
public final class ReportMerge {
    static final String FAR_SIDE_NOT_MERGED = "not merged: each client's server window also saw the other clients' transfers; "
            + "see each client's report";

    /** Settings that describe each client's own machine (upload's sender names its local bodies' directory): may differ. */
    private static final Set<String> OWN_MACHINE_SETTINGS = Set.of("sender");

    /** One input: its file name (for messages and the environment) and the report. */
    public record Input(String name, Report report) {
    }

    /** Who took part, as recorded in the merged environment's {@code clients}. */
    record Member(String report, String clientId, String host) {
    }

    /**
     * @param count          how many clients
     * @param members        each client's report, id and host
     * @param overlapMinimum over the merged rows, the smallest (time all clients were measuring at once) / (union span):
     *                       1 = they ran the row in lockstep; null when no row could be merged
     */
    public record Clients(int count, List<Member> members, Double overlapMinimum) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportMerge() {
    }

    public static Report merge(List<Input> inputs) {
        if (inputs.size() < 2) {
            throw new IllegalArgumentException("merge needs the reports of at least two clients");
        }
        checkIds(inputs);
        checkSameSettings(inputs);
        checkNoRepeatedRows(inputs);
        Set<MethodResult.Row> rows = new LinkedHashSet<>();
        inputs.forEach(in -> in.report().results().forEach(r -> rows.add(r.row())));
        List<MethodResult> merged = new ArrayList<>();
        double overlapMin = Double.NaN;
        for (MethodResult.Row row : rows) {
            List<MethodResult> parts = new ArrayList<>();
            String missing = null;
            for (Input in : inputs) {
                MethodResult part = in.report().results().stream().filter(r -> r.row().equals(row)).findFirst().orElse(null);
                if (part == null) {
                    missing = in.name();
                } else {
                    parts.add(part);
                }
            }
            if (missing != null) {
                merged.add(MethodResult.failed(row, "not in " + missing + ": the clients ran different rows"));
                continue;
            }
            Merged m = mergeRow(row, parts, inputs);
            merged.add(m.result());
            if (!Double.isNaN(m.overlap())) {
                overlapMin = Double.isNaN(overlapMin) ? m.overlap() : Math.min(overlapMin, m.overlap());
            }
        }
        ObjectNode environment = inputs.get(0).report().environment().deepCopy();
        environment.remove("clientId");
        environment.remove("client");  // each client's machine is in clients.members
        List<Member> members = inputs.stream().map(in -> new Member(in.name(), in.report().environment().path("clientId").textValue(),
                in.report().environment().path("client").path("host").textValue())).toList();
        environment.set("clients", JSON.valueToTree(new Clients(inputs.size(), members, Double.isNaN(overlapMin) ? null : overlapMin)));
        return new Report(environment, merged);
    }

    private record Merged(MethodResult result, double overlap) {
    }

    private static Merged mergeRow(MethodResult.Row row, List<MethodResult> parts, List<Input> inputs) {
        for (int i = 0; i < parts.size(); i++) {
            MethodResult p = parts.get(i);
            switch (p.status()) {
                case MethodResult.Status.Failed f -> {
                    return new Merged(MethodResult.failed(row, inputs.get(i).name() + ": " + f.cause()), Double.NaN);
                }
                case MethodResult.Status.Skipped s -> {
                    return new Merged(MethodResult.skipped(row, s.reason()), Double.NaN);
                }
                case MethodResult.Status.Measured m -> {
                }
            }
            if (p.throughput().startedAtEpochMicros() == null) {
                return new Merged(MethodResult.failed(row, inputs.get(i).name() + " has no measured span (a report older than "
                        + "client merge): run the clients again"), Double.NaN);
            }
        }
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        long latestStart = Long.MIN_VALUE;
        long earliestEnd = Long.MAX_VALUE;
        long bytes = 0;
        int transfers = 0;
        double user = 0;
        double system = 0;
        long voluntary = 0;
        long involuntary = 0;
        boolean cpuKnown = true;
        for (MethodResult p : parts) {
            MethodResult.Throughput t = p.throughput();
            from = Math.min(from, t.startedAtEpochMicros());
            to = Math.max(to, t.endedAtEpochMicros());
            latestStart = Math.max(latestStart, t.startedAtEpochMicros());
            earliestEnd = Math.min(earliestEnd, t.endedAtEpochMicros());
            bytes += t.bytes();
            transfers += t.transfers();
            if (p.clientCpu() == null) {
                cpuKnown = false;
            } else {
                user += p.clientCpu().userSeconds();
                system += p.clientCpu().systemSeconds();
                voluntary += p.clientCpu().voluntarySwitches();
                involuntary += p.clientCpu().involuntarySwitches();
            }
        }
        double seconds = Math.max(1, to - from) / 1e6;
        double mibPerSec = Sizes.mib(bytes) / seconds;
        double perSecond = transfers / seconds;
        // One figure for the whole window: min, max and the per-round list are that figure, not a spread.
        MethodResult.Throughput throughput = new MethodResult.Throughput(bytes, transfers, seconds, mibPerSec, mibPerSec, mibPerSec,
                List.of(mibPerSec), perSecond, perSecond, perSecond, from, to);
        MethodResult.Cpu clientCpu = cpuKnown ? MethodResult.Cpu.of(user, system, voluntary, involuntary, bytes / (double) Sizes.GiB, transfers) : null;
        MethodResult result = new MethodResult(row, throughput, null, clientCpu, null, MethodResult.Syscalls.unavailable(FAR_SIDE_NOT_MERGED),
                null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
        return new Merged(result, Math.max(0, earliestEnd - latestStart) / (double) Math.max(1, to - from));
    }

    /**
     * Every report must carry an id, of one N that matches the number of reports, and no id twice: a report given twice
     * (or a copy of it) would otherwise be added to itself.
     */
    private static void checkIds(List<Input> inputs) {
        Set<String> seen = new LinkedHashSet<>();
        for (Input in : inputs) {
            JsonNode id = in.report().environment().get("clientId");
            if (id == null || id.isNull()) {
                throw new IllegalArgumentException(in.name() + " has no clientId: merge only reports of clients run with --client-id I/N");
            }
            ClientId parsed;
            try {
                parsed = new ClientId.Converter().convert(id.asText());
            } catch (TypeConversionException e) {
                throw new IllegalArgumentException(in.name() + ": clientId '" + id.asText() + "' is not I/N with 1 <= I <= N");
            }
            if (parsed.count() != inputs.size()) {
                throw new IllegalArgumentException(in.name() + " is client " + parsed + ", but " + inputs.size() + " reports were given");
            }
            if (!seen.add(parsed.toString())) {
                throw new IllegalArgumentException("two reports are client " + parsed + " (" + in.name() + " is the second)");
            }
        }
    }

    /**
     * Cooperating clients ran one command line against one server: their settings (server, sizes, repeat, concurrency,
     * verify, cache, ...) must be equal, or the sum would mix runs that measured different things.
     */
    private static void checkSameSettings(List<Input> inputs) {
        for (Input in : inputs.subList(1, inputs.size())) {
            List<SettingsDifference> differing = SettingsDifference.between(inputs.get(0).report(), in.report()).stream()
                    .filter(d -> !OWN_MACHINE_SETTINGS.contains(d.key())).toList();
            if (!differing.isEmpty()) {
                throw new IllegalArgumentException(in.name() + " and " + inputs.get(0).name() + " differ in their settings ("
                        + String.join("; ", differing.stream().map(SettingsDifference::describe).toList())
                        + "): merge only clients of one run");
            }
        }
    }

    /** A row twice in one report cannot be matched with the other reports' rows: which copy goes with which? */
    private static void checkNoRepeatedRows(List<Input> inputs) {
        for (Input in : inputs) {
            Set<MethodResult.Row> rows = new LinkedHashSet<>();
            for (MethodResult r : in.report().results()) {
                if (!rows.add(r.row())) {
                    throw new IllegalArgumentException(in.name() + " has the row " + RowName.of(r) + " twice: merge runs "
                            + "whose methods and sizes are each given once");
                }
            }
        }
    }
}
