package io.xferbench.client.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.xferbench.client.UsageErrorsTest;
import io.xferbench.client.render.ReportFormat;
import io.xferbench.client.render.ReportWriter;
import io.xferbench.client.report.Environments;
import io.xferbench.client.report.Report;
import io.xferbench.core.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare on two load reports (fixtures shaped as load-bench writes them, three rounds a row): A's rounds of nginx are
 * 100, 200, 400 req/s, B's 90, 180, 360, a machine 10 % slower in every round; the virtual row's rounds are half, 0.6
 * and 0.45 of nginx's in both; netty-epoll's rounds are 90, 100, 110 in A and 150, 160, 170 in B.
 */
class LoadCompareTest {
    private static final Path A = fixture("load-a.json");
    private static final Path B = fixture("load-b.json");

    private static Path fixture(String name) {
        try {
            return Path.of(LoadCompareTest.class.getResource(name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @TempDir
    Path dir;

    private UsageErrorsTest.Run compare(String... more) {
        return run("markdown", more);
    }

    /** compare A B in {@code format} with {@code more} arguments, written to a file ({@code --out}). */
    private UsageErrorsTest.Run run(String format, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("compare", A.toString(), B.toString(), "--format", format,
                "--out", dir.resolve("compared." + format).toString()));
        args.addAll(List.of(more));
        return UsageErrorsTest.run(args.toArray(String[]::new));
    }

    private String out(UsageErrorsTest.Run r) throws java.io.IOException {
        assertThat(r.exit()).as(r.err()).isZero();
        try (var files = Files.list(dir)) {
            return Files.readString(files.filter(f -> f.getFileName().toString().startsWith("compared.")).findFirst().orElseThrow());
        }
    }

    private static void oneLine(UsageErrorsTest.Run r, int exit) {
        assertThat(r.exit()).as(r.err()).isEqualTo(exit);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void rowsAreMatchedByWhatTheyAreAndTheRestListed() throws Exception {
        String md = out(compare());
        assertThat(md).contains("- requests/s: median [min..max] over the rounds;")
                .contains("| nginx | sendfile | xferbench | http | download | 50KiB | 10 | 200 [100..400] | 180 [90..360] | -10.0% | overlap "
                        + "| 2.00 | 2.50 | +25.0% | 10.0 | 11.0 | +10.0% |")
                // Skipped in B: its JSON names no method asked, and it is still the same row.
                .contains("| netty-io-uring netty-auto | xferbench | http | download | 50KiB | 10 | 85 [80..95] | skipped | - | - |")
                .contains("- only in A: xferbench platform sendfile (xferbench, http, download, 50KiB, 10 conns)\n")
                // The same server and model at another concurrency is another row.
                .contains("- only in B: nginx sendfile (xferbench, http, download, 50KiB, 20 conns)\n")
                .contains("- methodRun differs, xferbench netty-epoll netty-auto (xferbench, http, download, 50KiB, 10 conns): "
                        + "netty-file-region vs loop-sendfile\n")
                .contains("- settings differ, duration: 2000 ms vs 5000 ms\n")
                .contains("- environment differs, kernel: Linux 6.1.0 amd64 vs Linux 6.18.44 amd64\n")
                .doesNotContain("dataDir");
        assertThat(md.lines().filter(l -> l.startsWith("| xferbench") || l.startsWith("| nginx"))).hasSize(4);
    }

    @Test
    void overlapAndApartAsTheOtherComparisonSaysThem() throws Exception {
        String table = out(run("table"));
        assertThat(table.lines().filter(l -> l.startsWith("xferbench  netty-epoll"))).singleElement().asString()
                .contains("100 [90..110]").contains("160 [150..170]").contains("+60.0%").contains("apart");
        assertThat(table.lines().filter(l -> l.startsWith("xferbench  virtual"))).singleElement().asString()
                .contains("120 [50..180]").contains("108 [45..162]").contains("-10.0%").contains("overlap");
    }

    @Test
    void relativeToDividesEachRoundByTheReferencesSameRound() throws Exception {
        String md = out(compare("--relative-to", "nginx"));
        assertThat(md).contains("- requests/s relative to nginx sendfile (xferbench, http, download, 50KiB, 10 conns): each round's")
                .contains("| 10 | 1.000 [1.000..1.000] | 1.000 [1.000..1.000] | +0.0% | reference |")
                // The machine's 10 % is gone: the same ratios in both runs.
                .contains("| virtual sendfile | xferbench | http | download | 50KiB | 10 | 0.500 [0.450..0.600] | 0.500 [0.450..0.600] | +0.0% "
                        + "| overlap |")
                // 90/100, 100/200, 110/400 against 150/90, 160/180, 170/360.
                .contains("| netty-epoll netty-auto | xferbench | http | download | 50KiB | 10 | 0.500 [0.275..0.900] | 0.889 [0.472..1.667] "
                        + "| +77.8% | overlap |");
        // Named by words of its name: each run's rounds over its own netty-epoll rounds.
        LoadComparison c = LoadComparison.of(LoadRun.read(A), LoadRun.read(B), "netty-epoll http");
        LoadComparison.Pair virtual = c.pairs().get(1);
        assertThat(virtual.a().model()).isEqualTo("virtual sendfile");
        assertThat(List.of(virtual.rateA().median(), virtual.rateA().min(), virtual.rateA().max()))
                .containsExactly(120.0 / 100, 50.0 / 90, 180.0 / 110);
        assertThat(List.of(virtual.rateB().median(), virtual.rateB().min(), virtual.rateB().max()))
                .containsExactly(108.0 / 160, 45.0 / 150, 162.0 / 170);
        assertThat(virtual.deltaPercent()).isCloseTo((108.0 / 160 - 1.2) / 1.2 * 100, offset(1e-9));
        assertThat(virtual.rangesOverlap()).isTrue();
    }

    @Test
    void aRowNotInBothRunsIsAUsageError() {
        for (String row : new String[] {"nginx sendfile (xferbench, http, download, 50KiB, 20 conns)", "platform", "nothing"}) {
            UsageErrorsTest.Run r = compare("--relative-to", row);
            oneLine(r, Cli.USAGE);
            assertThat(r.err()).contains("--relative-to " + row + ": no such row in both runs");
        }
        UsageErrorsTest.Run several = compare("--relative-to", "xferbench");
        oneLine(several, Cli.USAGE);
        assertThat(several.err()).contains("names 4 rows");
        UsageErrorsTest.Run skipped = compare("--relative-to", "netty-io-uring");
        oneLine(skipped, Cli.USAGE);
        assertThat(skipped.err()).contains("has no requests/s in B");
    }

    @Test
    void aLoadReportAndADownloadReportIsOneLine() throws Exception {
        Path download = Files.writeString(dir.resolve("download.json"),
                ReportWriter.render(new Report(Environments.of(Map.of()), List.of()), ReportFormat.JSON));
        for (String[] pair : new String[][] {{A.toString(), download.toString()}, {download.toString(), A.toString()}}) {
            UsageErrorsTest.Run r = UsageErrorsTest.run("compare", pair[0], pair[1]);
            oneLine(r, Cli.FAILED);
            assertThat(r.err()).contains(A + " is a load report and " + download + " is not");
        }
        UsageErrorsTest.Run r = UsageErrorsTest.run("compare", download.toString(), download.toString(), "--relative-to", "nginx");
        oneLine(r, Cli.USAGE);
        assertThat(r.err()).contains("--relative-to compares load reports only");
    }
}
