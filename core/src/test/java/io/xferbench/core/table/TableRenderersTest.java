package io.xferbench.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.table.Table.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableRenderersTest {

    private static Table sample() {
        return Table.of(Column.left("method"), Column.right("MiB/s"), Column.left("note"))
                .preamble("jdk: 25")
                .row("mmap", "1200", "a, \"quoted\" | piped")
                .row("transfer-to", "98", "")
                .spanningRow("skipped", List.of("io-uring-send-zc", "skipped: no SENDMSG_ZC <here>"))
                .note("* a note");
    }

    @Test
    void alignedTextPadsTextLeftAndNumbersRightAndASpanningCellWidensNoColumn() {
        assertThat(TextTable.aligned(sample())).isEqualTo("""
                # jdk: 25
                method            MiB/s  note
                mmap               1200  a, "quoted" | piped
                transfer-to          98
                io-uring-send-zc  skipped: no SENDMSG_ZC <here>
                * a note
                """);
    }

    @Test
    void pipedTextIsMarkdownWithPaddedCellsAndAColonOverRightAlignedColumns() {
        List<String> lines = TextTable.piped(sample()).lines().toList();
        assertThat(lines.get(1)).isEqualTo("| method           | MiB/s | note                |");
        assertThat(lines.get(2)).isEqualTo("|------------------|------:|---------------------|");
        assertThat(lines.get(4)).isEqualTo("| transfer-to      |    98 |                     |");
        assertThat(lines.get(5)).isEqualTo("| io-uring-send-zc | skipped: no SENDMSG_ZC <here> |");
    }

    @Test
    void aMinimumWidthHoldsAColumnOpenWhenItsCellsAreNarrower() {
        Table t = Table.of(Column.left("a").atLeast(4), Column.right("b").atLeast(3)).row("x", "1");
        assertThat(TextTable.aligned(t)).isEqualTo("a       b\nx       1\n");
    }

    @Test
    void aHeadersLinesAreStackedInTextAndJoinedElsewhere() {
        Table t = Table.of(Column.left("method"), Column.right("client usr/sys\nCPU s/GiB")).row("mmap", "0.1/0.2");
        assertThat(TextTable.aligned(t, 1)).isEqualTo("""
                method client usr/sys
                            CPU s/GiB
                mmap          0.1/0.2
                """);
        assertThat(MarkdownTable.table(t)).startsWith("| method | client usr/sys CPU s/GiB |\n");
        assertThat(CsvTable.render(t)).startsWith("method,client usr/sys CPU s/GiB\n");
        assertThat(HtmlTable.render(t)).contains("<th>client usr/sys CPU s/GiB</th>");
    }

    @Test
    void aColumnSetApartGetsOneMoreSpaceBeforeIt() {
        Table t = Table.of(Column.left("a"), Column.right("b"), Column.left("c").setApart()).row("x", "1", "yes");
        assertThat(TextTable.aligned(t, 1)).isEqualTo("a b  c\nx 1  yes\n");
    }

    @Test
    void markdownEscapesPipesAndLineBreaksFillsSpannedColumnsAndSetsNotesApart() {
        Table t = sample().row("stream", "5", "two\nlines");
        assertThat(MarkdownTable.render(t)).isEqualTo("""
                - jdk: 25

                | method | MiB/s | note |
                |---|---:|---|
                | mmap | 1200 | a, "quoted" \\| piped |
                | transfer-to | 98 |  |
                | io-uring-send-zc | skipped: no SENDMSG_ZC <here> |  |
                | stream | 5 | two lines |

                * a note
                """);
    }

    @Test
    void csvQuotesCommasQuotesAndLineBreaksOnlyAndHasNoPreambleOrNotes() {
        Table t = sample().row("stream", "5", "two\nlines");
        assertThat(CsvTable.render(t)).isEqualTo("""
                method,MiB/s,note
                mmap,1200,"a, ""quoted"" | piped"
                transfer-to,98,
                io-uring-send-zc,skipped: no SENDMSG_ZC <here>,
                stream,5,"two
                lines"
                """);
    }

    @Test
    void htmlEscapesCellsAndSpansTheSkippedReasonOverTheColumnsItStandsFor() {
        assertThat(HtmlTable.render(sample())).isEqualTo("""
                <table>
                <tr><th>method</th><th>MiB/s</th><th>note</th></tr>
                <tr><td>mmap</td><td>1200</td><td>a, &quot;quoted&quot; | piped</td></tr>
                <tr><td>transfer-to</td><td>98</td><td></td></tr>
                <tr><td>io-uring-send-zc</td><td class="skipped" colspan="2">skipped: no SENDMSG_ZC &lt;here&gt;</td></tr>
                </table>
                """);
    }

    @Test
    void aRowMustFillItsColumnsUnlessItSpans() {
        Table t = Table.of(Column.left("a"), Column.left("b"));
        assertThatThrownBy(() -> t.row("only one")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 cells for 2");
        assertThatThrownBy(() -> t.row("a", "b", "c")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> t.spanningRow("skipped", List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
