package io.xferbench.client.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.uring.UringFileSender;
import io.xferbench.nativeio.JvmFlags;
import io.xferbench.nativeio.PageCache;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drives the Java-vs-C-twin comparison ({@code scripts/twin}): one {@link TwinDrain} process receives every
 * transfer; per method, one {@link TwinSend} JVM (warm-up sends first, then one measured send per round, like a
 * long-running server) alternates with the C twin ({@code native/c/xfer_twin}, or {@code xfer_uring_twin} for the
 * io_uring modes) round by round: Java, C, Java, C...
 * Throughput is the drain's (accept to last byte), so both senders are timed by the same code. Each sender also
 * reports its process CPU (getrusage) over its send, printed per GiB to show where the time goes.
 * <pre>
 * TwinBench --twin PATH [--uring-twin PATH] [--size 4GiB] [--rounds 3] [--warmup 1] [--buffer 64KiB]
 *           [--io-uring-depth 4] [--data-dir DIR] [--methods id,id,...] [--twin-build TEXT]
 * </pre>
 */
public final class TwinBench {
    /** Method id → the C twin's mode, from each download method's descriptor. */
    static final Map<String, String> TWINS = DownloadMethods.all().stream().filter(m -> m.traits().twinMode() != null)
            .collect(java.util.stream.Collectors.toUnmodifiableMap(SenderMethod::id, m -> m.traits().twinMode()));
    static final double TARGET = 0.90;
    /** Largest whole-MiB length below Netty 4.2.18's int cast, for io-uring on files past 2 GiB. */
    static final long INT_SAFE_LENGTH = Integer.MAX_VALUE / Sizes.MiB * Sizes.MiB;

    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S+)");

    private final List<String> javaCommand;
    private final String twin;
    private final String uringTwin;
    private final int uringDepth;
    private final int rounds;
    private final int warmup;
    private final int buffer;
    private final Path file;
    private final long size;
    private final BlockingQueue<String> drainLines = new LinkedBlockingQueue<>();
    private int port;
    private long minResidentPermille = 1000;
    private int rewarms;

    private TwinBench(String twin, String uringTwin, int uringDepth, int rounds, int warmup, int buffer, Path file, long size) {
        this.twin = twin;
        this.uringTwin = uringTwin;
        this.uringDepth = uringDepth;
        this.rounds = rounds;
        this.warmup = warmup;
        this.buffer = buffer;
        this.file = file;
        this.size = size;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(JvmFlags.required());
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        this.javaCommand = List.copyOf(command);
    }

    record Row(String method, String twinMode, long length, String note, Stats java, Stats c, List<Double> pairRatios,
               Cpu javaCpu, Cpu cCpu) {
    }

    /** Medians, per GiB sent, of the sender process's CPU milliseconds (user + system, and user alone) and context switches. */
    record Cpu(double totalMs, double userMs, double switches) {
        static Cpu of(List<Map<String, String>> lines) {
            List<Double> total = new ArrayList<>();
            List<Double> user = new ArrayList<>();
            List<Double> csw = new ArrayList<>();
            for (Map<String, String> f : lines) {
                double gib = Double.parseDouble(f.get("bytes")) / Sizes.GiB;
                double u = Double.parseDouble(f.get("user")) * 1000 / gib;
                total.add(u + Double.parseDouble(f.get("sys")) * 1000 / gib);
                user.add(u);
                csw.add((Double.parseDouble(f.get("vcsw")) + Double.parseDouble(f.get("ivcsw"))) / gib);
            }
            return new Cpu(Stats.of(total).median(), Stats.of(user).median(), Stats.of(csw).median());
        }

        String format() {
            return Double.isNaN(totalMs) ? "-" : String.format(Locale.ROOT, "%.0f (%.0f usr)", totalMs, userMs);
        }
    }

    public static void main(String[] args) throws Exception {
        String twin = null;
        String uringTwin = null;
        int uringDepth = UringFileSender.DEFAULT_QUEUE_DEPTH;
        long size = 4 * Sizes.GiB;
        int rounds = 3;
        int warmup = 1;
        int buffer = TransferOptions.DEFAULT_BUFFER_SIZE;
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "xferbench-twin-data");
        List<String> methods = DownloadMethods.ids();
        String twinBuild = "";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--twin" -> twin = args[++i];
                case "--uring-twin" -> uringTwin = args[++i];
                case "--io-uring-depth" -> uringDepth = Integer.parseInt(args[++i]);
                case "--size" -> size = Sizes.parse(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--buffer" -> buffer = Math.toIntExact(Sizes.parse(args[++i]));
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--methods" -> methods = Arrays.asList(args[++i].split(","));
                case "--twin-build" -> twinBuild = args[++i];
                default -> usage();
            }
        }
        if (twin == null || rounds < 1 || warmup < 0 || uringDepth < 1) {
            usage();
        }
        for (String m : methods) {
            if (!TWINS.containsKey(m)) {
                throw new IllegalArgumentException("no C twin for method " + m + "; known: " + TWINS.keySet());
            }
        }
        System.out.println("twin: preparing " + Sizes.format(size) + " file in " + dataDir + " ...");
        TestFile test = new DataDirectory(dataDir).generated(size);
        try (FileChannel ch = FileChannel.open(test.path(), StandardOpenOption.READ)) {
            ch.force(false); // flush a freshly written file so O_DIRECT reads do not start with writeback
        }
        PageCache.warm(test.path());
        TwinBench bench = new TwinBench(twin, uringTwin, uringDepth, rounds, warmup, buffer, test.path(), size);
        bench.run(methods, dataDir, twinBuild);
    }

    private static void usage() {
        System.err.println("usage: TwinBench --twin PATH [--uring-twin PATH] [--size 4GiB] [--rounds 3] [--warmup 1]"
                + " [--buffer 64KiB] [--io-uring-depth 4] [--data-dir DIR] [--methods id,id,...] [--twin-build TEXT]");
        System.exit(2);
    }

    private void run(List<String> methods, Path dataDir, String twinBuild) throws Exception {
        String loadBefore = loadavg();
        long startResidency = PageCache.residency(file).permille();
        Process drain = new ProcessBuilder(command(TwinDrain.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Row> rows = new ArrayList<>();
        try {
            startReader(drain);
            String first = drainLines.poll(60, TimeUnit.SECONDS);
            if (first == null || !first.startsWith("twin-drain listening on ")) {
                throw new IOException("drain did not start: " + first);
            }
            port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
            for (String id : methods) {
                rows.add(measure(DownloadMethods.byId(id).orElseThrow()));
            }
        } finally {
            drain.destroy();
            drain.waitFor(10, TimeUnit.SECONDS);
        }
        printTable(rows, dataDir, twinBuild, startResidency, loadBefore);
    }

    private Row measure(SenderMethod method) throws Exception {
        String mode = TWINS.get(method.id());
        if (!method.availability().isAvailable()) {
            System.out.println("twin: " + method.id() + " skipped: " + method.availability().unavailableReason());
            return new Row(method.id(), mode, 0, "skipped: " + method.availability().unavailableReason(),
                    Stats.of(List.of()), Stats.of(List.of()), List.of(), null, null);
        }
        if (program(mode) == null) {
            String reason = "C twin " + mode + " not built (liburing-dev missing: sudo apt-get install -y liburing-dev)";
            System.out.println("twin: " + method.id() + " skipped: " + reason);
            return new Row(method.id(), mode, 0, "skipped: " + reason, Stats.of(List.of()), Stats.of(List.of()), List.of(), null, null);
        }
        long length = size;
        String note = "";
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             FileSender probe = method.newSender(new TransferOptions(buffer, false))) {
            SourceFile source = new SourceFile(file, ch, size);
            try {
                probe.checkSupported(source, 0, size);
            } catch (UnsupportedTransferException e) {
                length = Math.min(size, INT_SAFE_LENGTH);
                probe.checkSupported(source, 0, length); // still refused: let it fail loudly
                note = "first " + Sizes.format(length) + " only: " + e.getMessage();
            }
        }
        System.out.println("twin: " + method.id() + " vs C " + mode + ", " + Sizes.format(length)
                + (note.isEmpty() ? "" : " (" + note + ")"));

        List<String> cmd = command(TwinSend.class.getName(), method.id(), file.toString(), "127.0.0.1",
                Integer.toString(port), Integer.toString(buffer), "--length", Long.toString(length),
                "--warmup", Integer.toString(warmup), "--io-uring-depth", Integer.toString(uringDepth), "--on-stdin");
        Process java = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Double> javaMibs = new ArrayList<>();
        List<Double> cMibs = new ArrayList<>();
        List<Double> pairs = new ArrayList<>();
        List<Map<String, String>> javaLines = new ArrayList<>();
        List<Map<String, String>> cLines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(java.getInputStream(), StandardCharsets.US_ASCII));
             Writer in = new OutputStreamWriter(java.getOutputStream(), StandardCharsets.US_ASCII)) {
            for (int i = 0; i < warmup; i++) {
                expect(out, "twin-send warmup");
                drainResult(length); // warm-up sends are received and discarded
            }
            expect(out, "twin-send ready");
            for (int i = 0; i < warmup; i++) {
                runC(mode, length); // the C twin gets as many unmeasured sends
                drainResult(length);
            }
            for (int r = 1; r <= rounds; r++) {
                ensureResident();
                in.write("send\n");
                in.flush();
                javaLines.add(fields(expect(out, "twin-send method=")));
                double j = drainResult(length);
                ensureResident();
                cLines.add(fields(runC(mode, length)));
                double c = drainResult(length);
                javaMibs.add(j);
                cMibs.add(c);
                pairs.add(j / c);
                System.out.printf(Locale.ROOT, "twin:   round %d  java %8.1f MiB/s   C %8.1f MiB/s   ratio %.3f%n", r, j, c, j / c);
            }
            in.write("quit\n");
            in.flush();
        } finally {
            if (!java.waitFor(30, TimeUnit.SECONDS)) {
                java.destroyForcibly();
            }
        }
        return new Row(method.id(), mode, length, note, Stats.of(javaMibs), Stats.of(cMibs), pairs,
                Cpu.of(javaLines), Cpu.of(cLines));
    }

    /** The C program of a twin mode: the io_uring modes are xfer_uring_twin's (liburing), the others xfer_twin's; null if not built. */
    private String program(String mode) {
        return mode.startsWith("uring-") ? uringTwin : twin;
    }

    /** Runs the C twin once; returns its output line. */
    private String runC(String mode, long length) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(program(mode), mode, file.toString(), "127.0.0.1", Integer.toString(port),
                Integer.toString(buffer), Long.toString(length)));
        if (program(mode).equals(uringTwin)) {
            cmd.add(Integer.toString(uringDepth));
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            line = out.readLine();
        }
        int rc = p.waitFor();
        if (rc != 0 || line == null || !line.startsWith("xfer_twin mode=")) {
            throw new IOException("C twin " + mode + " failed (exit " + rc + "): " + line);
        }
        return line;
    }

    /** The drain's line for the next connection; its MiB/s. Fails on a short or long body. */
    private double drainResult(long length) throws Exception {
        String line = drainLines.poll(600, TimeUnit.SECONDS);
        if (line == null) {
            throw new IOException("no result from the drain in 600 s");
        }
        Map<String, String> f = fields(line);
        if (f.containsKey("error") || !f.containsKey("bytes")) {
            throw new IOException("drain: " + line);
        }
        if (Long.parseLong(f.get("bytes")) != length) {
            throw new IOException("drain received " + f.get("bytes") + " bytes, expected " + length);
        }
        return Double.parseDouble(f.get("bytes")) / Sizes.MiB / Double.parseDouble(f.get("seconds"));
    }

    /** Page-cache residency of the file before every measured send; re-warms (and counts it) if anything was evicted. */
    private void ensureResident() throws IOException {
        long permille = PageCache.residency(file).permille();
        minResidentPermille = Math.min(minResidentPermille, permille);
        if (permille < 1000) {
            rewarms++;
            PageCache.warm(file);
        }
    }

    private static String expect(BufferedReader out, String prefix) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException("TwinSend: expected '" + prefix + "...', got: " + line);
        }
        return line;
    }

    private void startReader(Process drain) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(drain.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = r.readLine()) != null) {
                    drainLines.add(line);
                }
            } catch (IOException ignored) {
                // the drain was stopped
            }
        }, "drain-reader");
        t.setDaemon(true);
        t.start();
    }

    private List<String> command(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            f.put(m.group(1), m.group(2));
        }
        if (line.contains("error=")) {
            f.put("error", line.substring(line.indexOf("error=") + 6));
        }
        return f;
    }

    private static String loadavg() {
        try {
            String[] p = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return p[0] + " " + p[1] + " " + p[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private void printTable(List<Row> rows, Path dataDir, String twinBuild, long startResidency, String loadBefore) {
        Map<String, Object> env = EnvironmentInfo.describe(dataDir);
        System.out.println();
        System.out.println("Java sender vs C twin, file -> loopback TCP -> one drain (TwinDrain: BodyReceiver, 1 MiB aligned direct buffer, length check only)");
        System.out.printf(Locale.ROOT, "  jdk: %s (%s)   kernel: %s   cpus: %s (%s)%n", env.get("jdk"), env.get("jvm"),
                env.get("kernel"), env.get("cpus"), env.get("cpuModel"));
        System.out.printf(Locale.ROOT, "  file: %s (%s), %s on %s %s%n", file.getFileName(), Sizes.format(size),
                env.get("fileSystem"), env.get("fileSystemDevice"), dataDir);
        System.out.printf(Locale.ROOT, "  cache: warm (resident %.1f%% at start, min %.1f%% before a measured send, %d re-warm(s));"
                + " O_DIRECT methods read the device regardless%n", startResidency / 10.0, minResidentPermille / 10.0, rewarms);
        System.out.printf(Locale.ROOT, "  rounds: %d interleaved (Java, C, Java, C...); warm-up: %d unmeasured send(s) per side per method,"
                + " all Java sends of a method in one JVM%n", rounds, warmup);
        System.out.printf(Locale.ROOT, "  buffer: %s (stream, channel-*, direct-io*, io-uring-*, readwrite/preadwrite/odirect/uring-*);"
                + " io_uring depth: %d; C: %s%n", Sizes.format(buffer), uringDepth, twinBuild.isEmpty() ? twin : twinBuild);
        System.out.printf(Locale.ROOT, "  MiB/s = bytes / drain time (accept -> last byte); loadavg before %s, after %s%n", loadBefore, loadavg());
        System.out.println();
        String[] head = {"method", "Java MiB/s median [min..max]", "C twin", "C MiB/s median [min..max]", "ratio", "pair ratios", ">=90%?",
                "Java CPU ms/GiB", "C CPU ms/GiB", "Java/C csw/GiB"};
        List<String[]> cells = new ArrayList<>();
        cells.add(head);
        for (Row r : rows) {
            if (r.java().n() == 0) {
                cells.add(new String[] {r.method(), r.note(), r.twinMode(), "-", "-", "-", "-", "-", "-", "-"});
                continue;
            }
            double ratio = r.java().median() / r.c().median();
            Stats pr = Stats.of(r.pairRatios());
            String name = r.method() + (r.note().isEmpty() ? "" : " *");
            cells.add(new String[] {name, r.java().format(), r.twinMode(), r.c().format(),
                    String.format(Locale.ROOT, "%.2f", ratio),
                    String.format(Locale.ROOT, "%.2f..%.2f", pr.min(), pr.max()),
                    ratio >= TARGET ? "yes" : "NO", r.javaCpu().format(), r.cCpu().format(),
                    String.format(Locale.ROOT, "%.0f / %.0f", r.javaCpu().switches(), r.cCpu().switches())});
        }
        int[] width = new int[head.length];
        for (String[] row : cells) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (int k = 0; k < cells.size(); k++) {
            StringBuilder sb = new StringBuilder("|");
            for (int i = 0; i < head.length; i++) {
                sb.append(' ').append(String.format("%-" + width[i] + "s", cells.get(k)[i])).append(" |");
            }
            System.out.println(sb);
            if (k == 0) {
                StringBuilder sep = new StringBuilder("|");
                for (int w : width) {
                    sep.append("-".repeat(w + 2)).append('|');
                }
                System.out.println(sep);
            }
        }
        for (Row r : rows) {
            if (!r.note().isEmpty() && r.java().n() > 0) {
                System.out.println("* " + r.method() + ": " + r.note() + " (both senders send the same range)");
            }
        }
        System.out.println("ratio = Java median / C median; pair ratios = range of Java/C within each interleaved round.");
        System.out.println("CPU ms/GiB = sender process user+sys CPU (getrusage RUSAGE_SELF, all threads) per GiB sent, median;"
                + " csw = context switches (voluntary + involuntary) per GiB.");
    }
}
