package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table of {@code scripts/fio-compare}: medians, ranges, ratios to fio and block requests per read, from the
 * measurements the script took. Input on stdin, one line per reader per round: {@code TOOL MIB_PER_S REQUESTS_PER_READ}
 * with TOOL one of fio, jna, jdk. Usage: {@code FioCompareTable DEVICE}.
 */
public final class FioCompareTable {
    private static final Map<String, String> READERS = readers();
    /** A reader within this fraction of fio counts as on par. */
    private static final double PAR = 0.90;

    private FioCompareTable() {
    }

    private static Map<String, String> readers() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("fio", "fio psync direct=1 bs=1m");
        m.put("jna", "JNA DirectIoFile.pread (O_DIRECT)");
        m.put("jdk", "JDK ExtendedOpenOption.DIRECT");
        return m;
    }

    /** One reader's measurements, round by round. */
    record Measured(List<Double> mibPerSec, List<Double> requestsPerRead) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: FioCompareTable DEVICE < measurements (TOOL MIB_PER_S REQUESTS_PER_READ per line)");
            System.exit(2);
        }
        try {
            print(read(new InputStreamReader(System.in, StandardCharsets.UTF_8)), args[0], System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("fio-compare: " + e.getMessage());
            System.exit(1);
        }
    }

    static Map<String, Measured> read(Reader in) throws IOException {
        Map<String, Measured> out = new LinkedHashMap<>();
        READERS.keySet().forEach(tool -> out.put(tool, new Measured(new ArrayList<>(), new ArrayList<>())));
        BufferedReader lines = new BufferedReader(in);
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            Measured m = f.length == 3 ? out.get(f[0]) : null;
            if (m == null) {
                throw new IllegalArgumentException("not 'fio|jna|jdk MIB_PER_S REQUESTS_PER_READ': " + line);
            }
            m.mibPerSec().add(Double.parseDouble(f[1]));
            m.requestsPerRead().add(Double.parseDouble(f[2]));
        }
        for (Map.Entry<String, Measured> e : out.entrySet()) {
            if (e.getValue().mibPerSec().size() != out.get("fio").mibPerSec().size() || e.getValue().mibPerSec().isEmpty()) {
                throw new IllegalArgumentException("every reader needs the same number of rounds, at least one: " + e.getKey());
            }
        }
        return out;
    }

    static void print(Map<String, Measured> measured, String device, PrintStream out) {
        Measured fio = measured.get("fio");
        Stats fioStats = Stats.of(fio.mibPerSec());
        out.printf(Locale.ROOT, "| %-34s | %-26s | %-13s | %-11s | %-6s | %-17s |%n", "reader", "MiB/s median [min..max]",
                "ratio vs fio", "pair ratios", ">=90%?", "dev req/read med");
        out.printf("|%s|%s|%s|%s|%s|%s|%n", "-".repeat(36), "-".repeat(28), "-".repeat(15), "-".repeat(13), "-".repeat(8), "-".repeat(19));
        for (Map.Entry<String, String> reader : READERS.entrySet()) {
            Measured m = measured.get(reader.getKey());
            Stats s = Stats.of(m.mibPerSec());
            Stats q = Stats.of(m.requestsPerRead());
            String ratio = "1.00";
            String pairs = "-";
            String par = "-";
            if (m != fio) {
                double r = s.median() / fioStats.median();
                ratio = String.format(Locale.ROOT, "%.2f", r);
                pairs = pairRatios(m.mibPerSec(), fio.mibPerSec());
                par = r >= PAR ? "yes" : "NO";
            }
            out.printf(Locale.ROOT, "| %-34s | %-26s | %-13s | %-11s | %-6s | %-17s |%n", reader.getValue(), s.format(), ratio, pairs, par,
                    String.format(Locale.ROOT, "%.2f [%.2f..%.2f]", q.median(), q.min(), q.max()));
        }
        out.println("ratio = median / fio median; pair ratios = range of reader/fio within each round;");
        out.println("dev req/read = block requests completed on " + device + " per 1 MiB read (1.00: never split, 2.00: always split).");
    }

    /** "min..max" of a[i] / b[i]: the ratio within each round, where both ran under the same conditions. */
    static String pairRatios(List<Double> a, List<Double> b) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < a.size(); i++) {
            double r = a.get(i) / b.get(i);
            lo = Math.min(lo, r);
            hi = Math.max(hi, r);
        }
        return String.format(Locale.ROOT, "%.2f..%.2f", lo, hi);
    }
}
