package io.xferbench.client.load.report;

import io.xferbench.client.load.report.LoadReport.Row;
import io.xferbench.client.load.target.JitSettle;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The legend under the load table: what its loop, clients, protocols and columns mean, for the rows it has. */
final class LoadLegend {
    private LoadLegend() {
    }

    static String of(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        loopAndProtocols(rows, sb);
        operations(rows, sb);
        repeats(rows, sb);
        if (rows.stream().anyMatch(r -> r.client().equals("wrk"))) {
            sb.append("client wrk: an independent check of the generator's ceiling; it checks status codes, not bodies.\n");
        }
        serverFigures(rows, sb);
        return sb.toString();
    }

    /** The loop, the client and the protocols: said for every table. */
    private static void loopAndProtocols(List<Row> rows, StringBuilder sb) {
        boolean open = rows.stream().anyMatch(r -> r.result() != null && r.result().targetRatePerSecond() > 0);
        sb.append(open ? "Open loop: latency from each request's intended start (coordinated omission corrected).\n"
                : "Closed loop: each connection sends its next request when its last one completes.\n");
        sb.append("client xferbench: every body verified by length and CRC32C; 'loop busy' is its busiest event-loop thread's "
                + "CPU share (near 100% the client may be the limit).\n");
        sb.append("proto: native is xferbench's binary protocol (a header and a trailer frame per response), http is HTTP/1.1 "
                + "keep-alive (GET, HEAD, PUT, DELETE).\n");
    }

    /** What ran and how it was checked: the method the server ran, uploads, read-back, errors outside the window. */
    private static void operations(List<Row> rows, StringBuilder sb) {
        if (rows.stream().anyMatch(r -> !LoadTable.modelCell(r).equals(r.model()))) {
            sb.append("model, ran X: the download method the server said ran, where it is not the one asked (HTTP: its X-Xferbench-Method, "
                    + "several when they differed between answers; native: the one asked, which the server runs or refuses, but "
                    + "netty-auto's pick by size is not named there).\n");
        }
        if (rows.stream().anyMatch(r -> r.server().equals("xferbench") && !r.operation().equals("download"))) {
            sb.append("xferbench uploads and deletes: native protocol only (its HTTP side serves GET and HEAD).\n");
        }
        if (rows.stream().anyMatch(r -> r.readBack() != null)) {
            sb.append("HTTP uploads: a PUT whose answer carries X-Xferbench-Crc32c is checked against the body's CRC32C (a "
                    + "mismatch is a 'crc mismatch' error); after the row every file whose last request was a verified PUT is "
                    + "read back (GET) and its CRC32C checked; failures show as 'read-back: ...' errors and the row is not "
                    + "verified. 'by status only' counts the PUTs whose answer said nothing of the bytes stored.\n");
        }
        if (rows.stream().anyMatch(r -> r.result() != null && !r.unmeasuredOfAll().isEmpty())) {
            sb.append("warm-up/drain errors: requests that failed while the generator warmed up or drained, outside the "
                    + "window's figures; any one makes the row not verified.\n");
        }
    }

    /** Rows measured in several windows, and their ratios to the best model and to the fewest connections. */
    private static void repeats(List<Row> rows, StringBuilder sb) {
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().windows() > 1)) {
            sb.append("Repeated rows: each row measured in several windows, round by round (every server at every concurrency "
                    + "of the operation once per round, odd rounds in reverse order); every figure is the window with the median "
                    + "req/s (the lower middle one for an even number), req/s range is all windows', errors and verified cover "
                    + "all windows.\n");
        }
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().ratioToBest() != null)) {
            sb.append("vs best req/s: req/s over the best xferbench model's in the same round (same client, protocol, operation "
                    + "and connections); the median over rounds, with the rounds' range and number. A round's best is the luckiest "
                    + "of its models' windows, so models of like speed all sit under 1 by about the rounds' noise.\n");
            sb.append("vs best median: the row's median req/s over the highest median req/s among the xferbench models (same "
                    + "client, protocol, operation and connections), which that luck does not bias.\n");
        }
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().vsFewest() != null)) {
            sb.append("vs N conns: req/s over the same row's at the fewest connections (N) in the same round; the median over "
                    + "rounds, with the rounds' range and number. Under 1 the row slows as connections grow.\n");
        }
    }

    /** The server's columns: its CPU and threads, its JIT, its syscalls. */
    private static void serverFigures(List<Row> rows, StringBuilder sb) {
        if (rows.stream().anyMatch(r -> r.serverFigures() != null)) {
            sb.append("srv µs/req: CPU of all the server's processes (user + system, /proc) over the window per request; "
                    + "srv threads: peak live threads, sampled every 10 ms; vs nginx: against nginx sendfile, same client and "
                    + "connections, over HTTP.\n");
        }
        sb.append(jitLegend(rows));
        sb.append(settleLegend(rows));
        if (rows.stream().anyMatch(r -> r.serverReport() != null)) {
            sb.append("started: platform threads the xferbench server started from the run's start, warm-up included (ThreadMXBean); carriers: its "
                    + "virtual-thread scheduler's carrier threads at the window's end (JDK 24+).\n");
        }
        if (rows.stream().anyMatch(r -> r.serverSyscalls() != null)) {
            sb.append("sys/req, cs/req: the server's syscalls and context switches per request, counted by the kernel for all "
                    + "its processes in a cgroup on every CPU (perf stat -a -G; the JSON has them by name); where that is not "
                    + "possible, the xferbench server's own count (perf per thread, getrusage); n/a where neither counts.\n");
        }
    }

    /** The rows whose server's JIT compiler threads still took a noted share of its CPU in the window, if any. */
    private static String jitLegend(List<Row> rows) {
        String compiling = rows.stream().filter(r -> r.serverFigures() != null && r.serverFigures().jitShare() >= LoadReport.JIT_NOTED_SHARE)
                .map(r -> String.format(Locale.ROOT, "%s %s %s %d conns %.0f%%", r.server(), r.model(), r.protocol(), r.concurrency(),
                        r.serverFigures().jitShare() * 100))
                .collect(Collectors.joining(", "));
        if (compiling.isEmpty()) {
            return "";
        }
        return "JIT: in these rows' windows the server's JIT compiler threads took this share of its CPU (it was still "
                + "warming up; a longer --jit-settle or --repeat helps): " + compiling + ".\n";
    }

    /** How long the rows' servers were loaded before their first windows until their JIT was quiet, and which never were. */
    private static String settleLegend(List<Row> rows) {
        List<Row> settled = rows.stream().filter(r -> r.jitSettle() != null).toList();
        if (settled.isEmpty()) {
            return "";
        }
        java.util.DoubleSummaryStatistics seconds = settled.stream().mapToDouble(r -> r.jitSettle().seconds()).summaryStatistics();
        String restless = settled.stream().filter(r -> !r.jitSettle().settled())
                .map(r -> String.format(Locale.ROOT, "%s %s %s %s %d conns (%s in its last second)", r.server(), r.model(),
                        r.protocol(), r.operation(), r.concurrency(), LoadReport.f("%.0f%%", r.jitSettle().lastShare() * 100)))
                .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "JIT settle: before its first window each xferbench row ran its own load unmeasured "
                + "until the server's compiler threads took under %.0f%% of its CPU in %d slices of %d s in a row: "
                + "%s s per row", LoadReport.JIT_NOTED_SHARE * 100, JitSettle.QUIET_SLICES, JitSettle.SLICE_NANOS / 1_000_000_000,
                span(seconds.getMin(), seconds.getMax()))
                + (restless.isEmpty() ? ".\n" : "; not quiet within --jit-settle: " + restless + ".\n");
    }

    /** {@code 43-60}, or one number when both ends round alike (it printed {@code 5-5 s per row}). */
    private static String span(double min, double max) {
        String a = String.format(Locale.ROOT, "%.0f", min);
        String b = String.format(Locale.ROOT, "%.0f", max);
        return a.equals(b) ? a : a + "-" + b;
    }
}
