package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FioCompareTableTest {

    private static List<String> table(String measurements) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FioCompareTable.print(FioCompareTable.read(new StringReader(measurements)), "sda", new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void mediansRangesAndRatiosRoundByRound() throws Exception {
        List<String> lines = table("""
                fio 1000 1.00
                jna 950 1.00
                jdk 800 2.00
                jna 1100 1.00
                jdk 700 2.00
                fio 1200 1.00
                jdk 600 1.50
                fio 900 1.00
                jna 1000 1.00
                """);
        assertThat(lines.get(0)).isEqualTo("| reader                             | MiB/s median [min..max]    | ratio vs fio  | pair ratios "
                + "| >=90%? | dev req/read med  |");
        assertThat(lines.get(2)).isEqualTo("| fio psync direct=1 bs=1m           | 1000 [900..1200]           | 1.00          | -           "
                + "| -      | 1.00 [1.00..1.00] |");
        // jna/fio per round: 0.95, 1100/1200 = 0.92, 1000/900 = 1.11; medians 1000/1000.
        assertThat(lines.get(3)).isEqualTo("| JNA DirectIoFile.pread (O_DIRECT)  | 1000 [950..1100]           | 1.00          | 0.92..1.11  "
                + "| yes    | 1.00 [1.00..1.00] |");
        assertThat(lines.get(4)).isEqualTo("| JDK ExtendedOpenOption.DIRECT      | 700 [600..800]             | 0.70          | 0.58..0.80  "
                + "| NO     | 2.00 [1.50..2.00] |");
        assertThat(lines.get(6)).contains("requests completed on sda");
    }

    @Test
    void aMissingRoundOrAStrangeLineIsRefused() {
        assertThatThrownBy(() -> table("fio 1 1\njna 1 1\n")).hasMessageContaining("jdk");
        assertThatThrownBy(() -> table("fio 1\n")).hasMessageContaining("fio 1");
    }
}
