package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.Direction;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TwinTableTest {

    private static Map<String, String> line(long bytes, double user, double sys, long switches) {
        return Map.of("bytes", Long.toString(bytes), "user", Double.toString(user), "sys", Double.toString(sys),
                "vcsw", Long.toString(switches), "ivcsw", "0");
    }

    @Test
    void mediansRatiosCpuAndSkippedRows() {
        long gib = 1L << 30;
        TwinRow measured = new TwinRow("io-uring-read-send", "uring-read-send", gib, "", Stats.of(List.of(900.0, 1000.0, 950.0)),
                Stats.of(List.of(1000.0, 1000.0, 1000.0)), List.of(0.9, 1.0, 0.95),
                SenderCpu.of(List.of(line(gib, 0.2, 0.4, 3000))), SenderCpu.of(List.of(line(gib, 0.0, 0.2, 2000))), null);
        TwinRow skipped = TwinRow.skipped("io-uring-send-zc", "uring-send-zc", "no SENDMSG_ZC");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TwinTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(measured, skipped));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();

        assertThat(lines.get(0)).startsWith("| method             | Java MiB/s median [min..max] | C twin");
        assertThat(lines.get(1)).matches("\\|[-|]+\\|");
        assertThat(lines.get(2)).contains("| 950 [900..1000]", "| uring-read-send |", "| 0.95  |", "| 0.90..1.00  |", "| yes    |",
                "| 600 (200 usr)", "| 200 (0 usr)", "| 3000 / 2000");
        assertThat(lines.get(3)).contains("| io-uring-send-zc", "skipped: no SENDMSG_ZC", "| uring-send-zc");
        assertThat(lines.get(4)).startsWith("ratio = Java median / C median");
    }

    @Test
    void anUploadTableSaysItsCpuIsTheReceivers() {
        TwinRow skipped = TwinRow.skipped("io-uring-recv-write", "uring-recv-write", "no io_uring");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TwinTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(skipped), Direction.UPLOAD);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("receiver process user+sys CPU", "per GiB received")
                .doesNotContain("sender process");
    }

    @Test
    void aReferenceModeSentInTheSameRoundsGetsItsOwnColumns() {
        long gib = 1L << 30;
        SenderCpu cpu = SenderCpu.of(List.of(line(gib, 0.1, 0.1, 10)));
        TwinRow withVersus = new TwinRow("io-uring-splice-linked", "uring-splice-linked", gib, "", Stats.of(List.of(600.0, 800.0)),
                Stats.of(List.of(700.0, 700.0)), List.of(0.8, 1.2), cpu, cpu,
                new TwinRow.Versus("sendfile", Stats.of(List.of(1000.0, 1000.0)), List.of(0.6, 0.8)));
        TwinRow plain = new TwinRow("transfer-to", "sendfile", gib, "", Stats.of(List.of(900.0)), Stats.of(List.of(1000.0)),
                List.of(0.9), cpu, cpu, null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TwinTable.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(withVersus, plain));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();

        assertThat(lines.get(0)).endsWith("| C sendfile MiB/s, same rounds | Java/sendfile (pairs) |");
        assertThat(lines.get(2)).endsWith("| 1000 [1000..1000]             | 0.70 (0.60..0.80)     |");
        assertThat(lines.get(3)).startsWith("| transfer-to").endsWith("| -                             | -                     |");
        assertThat(lines).anyMatch(l -> l.startsWith("C sendfile: a third send in every round of the row"));
    }

    @Test
    void everyTwinModeComesFromTheRegistryAndUringModesGoToTheLiburingTwin() {
        assertThat(TwinModes.BY_METHOD).containsEntry("transfer-to", "sendfile").containsEntry("io-uring", "uring-splice")
                .containsEntry("io-uring-read-send", "uring-read-send").containsEntry("io-uring-send-zc", "uring-send-zc")
                .containsEntry("io-uring-direct", "uring-direct").containsEntry("io-uring-splice-linked", "uring-splice-linked")
                .containsEntry("uring-fixed-send", "uring-fixed-send").containsEntry("uring-fixed-send-zc", "uring-fixed-send-zc");
        assertThat(TwinModes.isUring("uring-fixed-send-zc")).as("the own-ring methods' twins are liburing ones").isTrue();
        assertThat(TwinModes.UPLOAD_BY_METHOD).containsEntry("io-uring-recv-write", "uring-recv-write").doesNotContainKey("stream");
        assertThat(TwinModes.isUring("uring-recv-write")).isTrue();
        assertThat(TwinModes.isUring("uring-splice")).isTrue();
        assertThat(TwinModes.isUring("splice")).isFalse();
    }

    /** Every plain (non-io_uring) twin mode the registry names is one xfer_twin.c dispatches on, dontcache's among them. */
    @Test
    void xferTwinRunsEveryPlainModeTheRegistryNames() throws Exception {
        String source = java.nio.file.Files.readString(java.nio.file.Path.of("../native/c/xfer_twin.c"));
        assertThat(TwinModes.BY_METHOD).containsEntry("dontcache", "dontcache");
        for (String mode : TwinModes.BY_METHOD.values()) {
            if (!TwinModes.isUring(mode)) {
                assertThat(source).as(mode).contains("strcmp(mode, \"" + mode + "\") == 0");
            }
        }
    }

    @Test
    void usageErrorsAreOneLineReasons() {
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--size", "1GiB"})).hasMessageStartingWith("Missing required option: '--twin");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--rounds"})).hasMessageStartingWith("Missing required parameter for option '--rounds'");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--rounds", "0"})).hasMessageContaining("--rounds");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--buffer", "lots"})).hasMessageContaining("--buffer");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--methods", "nope"}))
                .hasMessageStartingWith("no C twin for download method nope; known: [");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--direction", "sideways"}))
                .hasMessageContaining("download or upload, not sideways");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--methods", "io-uring-recv-write"}))
                .hasMessageStartingWith("no C twin for download method io-uring-recv-write");
        TwinOptions up = TwinOptions.parse(new String[] {"--methods", "io-uring-recv-write", "--twin", "x", "--direction", "upload"});
        assertThat(up.direction()).isEqualTo(Direction.UPLOAD);
        assertThat(TwinOptions.parse(new String[] {"--twin", "x", "--direction", "upload"}).methods())
                .isEqualTo(List.copyOf(TwinModes.UPLOAD_BY_METHOD.keySet()));
        TwinOptions o = TwinOptions.parse(new String[] {"--twin", "x", "--io-uring-depth", "8", "--methods", "io-uring"});
        assertThat(o.direction()).isEqualTo(Direction.DOWNLOAD);
        assertThat(o.uringDepth()).isEqualTo(8);
        assertThat(o.uringTwin()).isNull();
        assertThat(o.methods()).containsExactly("io-uring");
        assertThat(o.versus()).isNull();
        assertThat(TwinOptions.parse(new String[] {"--twin", "x", "--versus", "sendfile"}).versus()).isEqualTo("sendfile");
        assertThatThrownBy(() -> TwinOptions.parse(new String[] {"--twin", "x", "--versus", "uring-splice"}))
                .hasMessageStartingWith("--versus takes a plain C twin mode, one of [");
    }
}
