package io.xferbench.client.run;

import io.xferbench.client.result.DirectionJson;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Where a long run is, on stderr: on a terminal one line redrawn every round,
 * {@code [n/N] download transfer-to 1GiB round 2/5, 0:41 elapsed, ETA 5:10}; otherwise (a log, CI) one line per row
 * with its {@code [n/N]}, so logs stay short; nothing with {@code --quiet}. The ETA assumes the remaining rounds take
 * as long as the finished ones did on average. On a terminal, a round that has run {@link #LIVE_AFTER_NANOS} or longer
 * (a multi-GiB transfer, say) also shows the bytes moved so far and their rate, redrawn every second by
 * {@link #tick()}, so a long transfer is never silent.
 */
public final class Progress {
    /** How progress is shown. */
    enum Mode { QUIET, LINES, LIVE }

    /** A round shorter than this shows no live bytes: its line would only flicker. */
    static final long LIVE_AFTER_NANOS = 3_000_000_000L;

    private final Mode mode;
    private final PrintStream err;
    private final LongSupplier nanos;
    private final int rows;
    private final int roundsPerRow;
    private final long start;
    private int row;
    private String label = "";
    private long roundsDone;
    private String round = "";
    private LongSupplier moved;
    private long roundStart;
    private long movedAtStart;
    private ScheduledExecutorService ticker;

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
    public static Progress onStderr(boolean quiet, int rows, TransferDriver.Rounds rounds) {
        Mode mode = quiet ? Mode.QUIET : stderrIsTerminal() ? Mode.LIVE : Mode.LINES;
        Progress progress = new Progress(mode, System.err, System::nanoTime, rows, rounds.warmup() + rounds.repeat());
        if (mode == Mode.LIVE) {
            progress.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "xferbench-progress");
                t.setDaemon(true);
                return t;
            });
            progress.ticker.scheduleAtFixedRate(progress::tick, 1, 1, TimeUnit.SECONDS);
        }
        return progress;
    }

    /** A row starts. */
    synchronized void row(MethodResult.Row r) {
        row++;
        label = DirectionJson.name(r.direction()) + (r.scenario() == null ? "" : " " + r.scenario().id()) + " " + r.method()
                + (r.relayBuffer() == null ? "" : " " + Sizes.format(r.relayBuffer())) + " " + Sizes.format(r.size());
        roundsDone = (long) (row - 1) * roundsPerRow;
        moved = null;
        if (mode == Mode.LINES) {
            err.println("xferbench: [" + row + "/" + rows + "] " + label + " ...");
        }
        if (mode == Mode.LIVE) {
            draw("");
        }
    }

    /** Round {@code index} (from 1) of {@code of} starts; warm-up rounds are counted on their own. */
    synchronized void round(boolean warmup, int index, int of) {
        round = (warmup ? " warm-up " : " round ") + index + "/" + of;
        if (mode == Mode.LIVE) {
            draw(round);
        }
    }

    /**
     * The round's transfers start (after its untimed preparation, so the rate is the transfers' own). {@code bytes}
     * reads the body bytes the run's connections have moved so far: a running total, the round's share is what it adds.
     */
    synchronized void transferring(LongSupplier bytes) {
        moved = bytes;
        roundStart = nanos.getAsLong();
        movedAtStart = bytes.getAsLong();
    }

    /** A round finished. */
    synchronized void roundDone() {
        roundsDone++;
        moved = null;
    }

    /**
     * Once a second on a terminal: a round running {@link #LIVE_AFTER_NANOS} or longer is redrawn with the bytes it
     * has moved and their rate.
     */
    synchronized void tick() {
        if (mode != Mode.LIVE || moved == null || nanos.getAsLong() - roundStart < LIVE_AFTER_NANOS) {
            return;
        }
        draw(round + ", " + movedSoFar());
    }

    /** What the running round has moved, e.g. {@code 1.5GiB at 1536 MiB/s}. */
    private String movedSoFar() {
        long bytes = moved.getAsLong() - movedAtStart;
        double seconds = (nanos.getAsLong() - roundStart) / 1e9;
        double mib = bytes / (double) Sizes.MiB;
        String amount = bytes >= Sizes.GiB ? String.format(Locale.ROOT, "%.2f GiB", bytes / (double) Sizes.GiB)
                : String.format(Locale.ROOT, "%.0f MiB", mib);
        return amount + " at " + String.format(Locale.ROOT, "%.0f MiB/s", seconds <= 0 ? 0 : mib / seconds);
    }

    /** The run is over: the live line is cleared so the report starts on a clean line. */
    public synchronized void finish() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
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
