package io.xferbench.client.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
    private final AtomicLong clock = new AtomicLong();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    private Progress progress(Progress.Mode mode) {
        return new Progress(mode, new PrintStream(bytes, true, StandardCharsets.UTF_8), clock::get, 2, 3);
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theEtaIsTheAverageRoundTimesTheRoundsLeft() {
        Progress p = progress(Progress.Mode.LIVE);
        p.row(MethodResult.Row.served(Direction.DOWNLOAD, "mmap", 64 * Sizes.MiB));
        assertThat(p.line(" warm-up 1/1")).isEqualTo("[1/2] download mmap 64MiB warm-up 1/1, 0:00 elapsed");
        clock.set(10_000_000_000L);
        p.roundDone();
        // 1 of 6 rounds in 10 s: 5 left, 50 s.
        assertThat(p.line(" round 1/2")).isEqualTo("[1/2] download mmap 64MiB round 1/2, 0:10 elapsed, ETA 0:50");
        clock.set(12_000_000_000L);
        p.row(MethodResult.Row.served(Direction.DOWNLOAD, "stream", Sizes.MiB));
        // The first row is done (3 rounds, say it was skipped short): 3 rounds in 12 s, 3 left.
        assertThat(p.line("")).isEqualTo("[2/2] download stream 1MiB, 0:12 elapsed, ETA 0:12");
        p.finish();
        assertThat(printed()).contains("\r[2/2] download stream 1MiB").endsWith("\r\033[K");
    }

    /** A long round on a terminal shows the bytes it has moved and their rate; a short one does not flicker. */
    @Test
    void aLongRoundShowsItsBytesAndRateOnATerminal() {
        Progress p = progress(Progress.Mode.LIVE);
        AtomicLong moved = new AtomicLong(5 * Sizes.GiB); // earlier rounds' bytes: not this round's
        p.row(MethodResult.Row.served(Direction.DOWNLOAD, "transfer-to", 8 * Sizes.GiB));
        p.round(false, 1, 2);
        clock.set(7_000_000_000L); // an untimed PREPARE of 7 s: not part of the rate
        p.tick();
        assertThat(printed()).doesNotContain("GiB at");
        p.transferring(moved::get);
        clock.set(7_000_000_000L + Progress.LIVE_AFTER_NANOS - 1);
        moved.addAndGet(Sizes.GiB);
        p.tick();
        assertThat(printed()).doesNotContain("GiB at");
        clock.set(11_000_000_000L);
        moved.addAndGet(Sizes.GiB);
        p.tick();
        // 2 GiB in the 4 s since the transfers started.
        assertThat(printed()).contains("\r[1/2] download transfer-to 8GiB round 1/2, 2.00 GiB at 512 MiB/s, 0:11 elapsed\033[K");
        p.roundDone();
        int before = printed().length();
        clock.set(20_000_000_000L);
        p.tick();
        assertThat(printed()).as("nothing between rounds").hasSize(before);
    }

    @Test
    void withoutATerminalOrWithQuietThereIsNoLiveLine() {
        for (Progress.Mode mode : new Progress.Mode[] {Progress.Mode.LINES, Progress.Mode.QUIET}) {
            Progress p = progress(mode);
            p.row(MethodResult.Row.served(Direction.DOWNLOAD, "transfer-to", 8 * Sizes.GiB));
            p.round(false, 1, 2);
            p.transferring(() -> 4 * Sizes.GiB);
            clock.set(clock.get() + 10_000_000_000L);
            p.tick();
            assertThat(printed()).as(mode.name()).doesNotContain("MiB/s");
        }
    }

    @Test
    void withoutATerminalEachRowIsOneLineAndRoundsAreNotPrinted() {
        Progress p = progress(Progress.Mode.LINES);
        p.row(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.SMALL, 0, 1024));
        p.round(false, 1, 3);
        p.row(MethodResult.Row.served(Direction.UPLOAD, "splice", Sizes.GiB));
        p.finish();
        assertThat(printed()).isEqualTo("xferbench: [1/2] proxy small copy 1KiB 0 ...\nxferbench: [2/2] upload splice 1GiB ...\n");
    }

    @Test
    void quietPrintsNothing() {
        Progress p = progress(Progress.Mode.QUIET);
        p.row(MethodResult.Row.served(Direction.DOWNLOAD, "mmap", 1));
        p.round(true, 1, 1);
        p.transferring(() -> 0);
        p.tick();
        p.finish();
        assertThat(printed()).isEmpty();
    }

    @Test
    void clockReadsMinutesAndHours() {
        assertThat(Progress.clock(3_725_000_000_000L)).isEqualTo("1:02:05");
        assertThat(Progress.clock(65_000_000_000L)).isEqualTo("1:05");
    }
}
