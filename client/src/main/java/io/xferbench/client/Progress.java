package io.xferbench.client;

import io.xferbench.core.Sizes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Where a long run is, on stderr: on a terminal one line redrawn every round,
 * {@code [n/N] download transfer-to 1GiB round 2/5, 0:41 elapsed, ETA 5:10}; otherwise (a log, CI) one line per row
 * with its {@code [n/N]}, so logs stay short; nothing with {@code --quiet}. The ETA assumes the remaining rounds take
 * as long as the finished ones did on average.
 */
final class Progress {
    /** How progress is shown. */
    enum Mode { QUIET, LINES, LIVE }

    private final Mode mode;
    private final PrintStream err;
    private final LongSupplier nanos;
    private final int rows;
    private final int roundsPerRow;
    private final long start;
    private int row;
    private String label = "";
    private long roundsDone;

    Progress(Mode mode, PrintStream err, LongSupplier nanos, int rows, int roundsPerRow) {
        this.mode = mode;
        this.err = err;
        this.nanos = nanos;
        this.rows = rows;
        this.roundsPerRow = roundsPerRow;
        this.start = nanos.getAsLong();
    }

    /** Nothing shown: tests and callers without a terminal of their own. */
    static Progress quiet() {
        return new Progress(Mode.QUIET, System.err, System::nanoTime, 0, 1);
    }

    /** Progress of {@code rows} rows of the given rounds on this process's stderr. */
    static Progress onStderr(boolean quiet, int rows, TransferDriver.Rounds rounds) {
        Mode mode = quiet ? Mode.QUIET : stderrIsTerminal() ? Mode.LIVE : Mode.LINES;
        return new Progress(mode, System.err, System::nanoTime, rows, rounds.warmup() + rounds.repeat());
    }

    /** A row starts. */
    void row(MethodResult.Row r) {
        row++;
        label = DirectionJson.name(r.direction()) + (r.scenario() == null ? "" : " " + r.scenario().id()) + " " + r.method()
                + (r.relayBuffer() == null ? "" : " " + Sizes.format(r.relayBuffer())) + " " + Sizes.format(r.size());
        roundsDone = (long) (row - 1) * roundsPerRow;
        if (mode == Mode.LINES) {
            err.println("xferbench: [" + row + "/" + rows + "] " + label + " ...");
        }
        if (mode == Mode.LIVE) {
            draw("");
        }
    }

    /** Round {@code index} (from 1) of {@code of} starts; warm-up rounds are counted on their own. */
    void round(boolean warmup, int index, int of) {
        if (mode == Mode.LIVE) {
            draw((warmup ? " warm-up " : " round ") + index + "/" + of);
        }
    }

    /** A round finished. */
    void roundDone() {
        roundsDone++;
    }

    /** The run is over: the live line is cleared so the report starts on a clean line. */
    void finish() {
        if (mode == Mode.LIVE) {
            err.print("\r\033[K");
            err.flush();
        }
    }

    /** The live line: where the run is, how long it has taken, how long it should still take. */
    String line(String round) {
        long elapsed = nanos.getAsLong() - start;
        long total = (long) rows * roundsPerRow;
        String eta = roundsDone == 0 ? "" : ", ETA " + clock(elapsed / roundsDone * (total - roundsDone));
        return "[" + row + "/" + rows + "] " + label + round + ", " + clock(elapsed) + " elapsed" + eta;
    }

    private void draw(String round) {
        err.print("\r" + line(round) + "\033[K");
        err.flush();
    }

    static String clock(long nanos) {
        long s = Math.max(0, nanos) / 1_000_000_000L;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** Linux: fd 2 links to a tty or pseudo-terminal (the JDK 21 API has no portable test for stderr alone). */
    private static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
