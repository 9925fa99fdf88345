package io.xferbench.client.run;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.metrics.ProcessMeasurement;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Drives one row of results, in any direction: opens {@code concurrency} kept-alive connections, runs warm-up
 * rounds (not measured), then {@code repeat} measured rounds inside a measurement window of the process that serves
 * the transfers (the server for downloads and uploads, the proxy for relays: CPU time and syscalls) and a client
 * CPU window. A round is {@link Job#transfersPerRound()} transfers on every connection at once, one after another
 * on each. What one transfer is — a download, an upload, an exchange through a proxy — is the job's
 * {@link Transfer}. Every transfer is verified, a warm-up round's too; one bad transfer fails the row, a method the far
 * side reports unavailable is skipped with its reason.
 */
public final class TransferDriver {

    /** How many rounds and connections; whether syscalls are wanted in the results. */
    public record Rounds(int repeat, int warmup, int concurrency, boolean countSyscalls) {
        public Rounds {
            if (repeat < 1 || concurrency < 1 || warmup < 0) {
                throw new IllegalArgumentException("--repeat and --concurrency must be >= 1, --warmup >= 0");
            }
        }
    }

    /** Opens one connection, ready for transfers (e.g. after the PROXY frame). */
    @FunctionalInterface
    public interface Connector<C extends AutoCloseable> {
        C open() throws IOException;
    }

    /** One transfer on connection number {@code index} (0 .. concurrency-1). */
    @FunctionalInterface
    public interface Transfer<C> {
        Outcome run(C connection, int index) throws IOException;
    }

    /**
     * Untimed work on one connection before each round's transfers, and once more after the last: a download PREPAREs
     * its file's cache state (cold: evicted; warm: read in), so the transfer's time is the transfer alone. Its
     * residencies become the transfers' "before" (as left) and the previous round's "after" (as found).
     */
    @FunctionalInterface
    public interface Preparer<C> {
        /**
         * Puts the file into the row's cache state; with {@code observeOnly} leaves it as it is and only reads its
         * residency (after the last round: reading how a transfer left the cache must not change it).
         */
        Prepared prepare(C connection, int index, boolean observeOnly) throws IOException;
    }

    /** The far side's measurement window: MEASURE_BEGIN, then MEASURE_END's report. */
    public interface Window extends AutoCloseable {
        void begin() throws IOException;

        MeasurementReport end() throws IOException;

        @Override
        default void close() throws IOException {
        }
    }

    /**
     * A connection type that opens sockets of its own (a new one per transfer, say) names their local addresses, so
     * the far side's report of other connections in the window can be told apart from this run's own. The driver
     * knows those of an {@link XferConnection} without help.
     */
    public interface LocalEndpoints {
        Collection<String> localAddresses();
    }

    /** A window for a run, given its open connections (the server's window rides on the first one). */
    @FunctionalInterface
    public interface WindowOpener<C> {
        Window open(List<C> connections) throws IOException;
    }

    /** One row and how to run it; {@code preparer} may be null (nothing to do between rounds). */
    public record Job<C extends AutoCloseable>(MethodResult.Row row, int transfersPerRound, Connector<C> connector, Transfer<C> transfer,
                                        WindowOpener<C> window, Preparer<C> preparer) {
        public Job {
            if (transfersPerRound < 1) {
                throw new IllegalArgumentException("transfers per round must be >= 1");
            }
        }

        /** A job with nothing to prepare between rounds. */
        public Job(MethodResult.Row row, int transfersPerRound, Connector<C> connector, Transfer<C> transfer, WindowOpener<C> window) {
            this(row, transfersPerRound, connector, transfer, window, null);
        }

        MethodResult skipped(String reason) {
            return MethodResult.skipped(row, reason);
        }

        MethodResult failed(String error) {
            return MethodResult.failed(row, error);
        }
    }

    /** The wall time of one measured round and what each of its transfers did. */
    record Round(long nanos, List<Outcome> outcomes) {
    }

    private final Rounds rounds;
    private final Progress progress;
    /**
     * Local addresses of the connections of this driver's earlier rows: closed by the time the next row's window
     * begins, but maybe still being torn down on the far side (a proxy's relay ends only when the upstream has closed
     * too), which then reports them as work in the window. They are this run's own, not another client's.
     */
    private final Set<String> earlierRows = ConcurrentHashMap.newKeySet();

    public TransferDriver(Rounds rounds) {
        this(rounds, Progress.quiet());
    }

    public TransferDriver(Rounds rounds, Progress progress) {
        this.rounds = rounds;
        this.progress = progress;
    }

    public Rounds rounds() {
        return rounds;
    }

    /** Runs the job, or skips it with {@code unavailableReason} when the far side already said it cannot run it. */
    public <C extends AutoCloseable> MethodResult run(Job<C> job, String unavailableReason) {
        progress.row(job.row());
        if (unavailableReason != null) {
            return job.skipped(unavailableReason);
        }
        List<C> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(rounds.concurrency(), r -> {
            Thread t = new Thread(r, "xferbench-client");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < rounds.concurrency(); i++) {
                connections.add(job.connector().open());
            }
            // Set-up (a file generated on first use, say) before anything is measured.
            prepareAll(pool, connections, job, false);
            for (int w = 0; w < rounds.warmup(); w++) {
                progress.round(true, w + 1, rounds.warmup());
                prepareAll(pool, connections, job, false);
                progress.transferring(() -> bodyBytes(connections));
                String failure = firstFailure(round(pool, connections, job));
                progress.roundDone();
                if (failure != null) {
                    // Not measured, but verified all the same: a wrong byte is a failure in any round.
                    return job.failed("verification failed in warm-up round " + (w + 1) + ": " + failure);
                }
            }
            return measured(job, pool, connections);
        } catch (RemoteException e) {
            if (e.status() == Status.UNAVAILABLE) {
                return job.skipped(e.reason());
            }
            return job.failed(e.getMessage());
        } catch (IOException | RuntimeException e) {
            return job.failed(e.toString());
        } finally {
            pool.shutdownNow();
            earlierRows.addAll(ownQuietly(connections));
            for (C c : connections) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // Closing; the row is already decided.
                }
            }
        }
    }

    private <C extends AutoCloseable> MethodResult measured(Job<C> job, ExecutorService pool, List<C> connections)
            throws IOException {
        List<List<List<Outcome>>> byRound = new ArrayList<>();
        List<Long> nanos = new ArrayList<>();
        ProcessMeasurement.Result client;
        MeasurementReport far;
        long startedAt = 0;
        long endedAt;
        try (Window window = job.window().open(connections)) {
            window.begin();
            boolean ended = false;
            try {
                try (ProcessMeasurement clientWindow = ProcessMeasurement.begin(false)) {
                    for (int r = 0; r < rounds.repeat(); r++) {
                        progress.round(false, r + 1, rounds.repeat());
                        Prepared[] prepared = prepareAll(pool, connections, job, false);
                        if (r > 0) {
                            residencyAfter(byRound.get(r - 1), prepared);
                        }
                        if (r == 0) {
                            startedAt = WallClock.epochMicros();
                        }
                        progress.transferring(() -> bodyBytes(connections));
                        long start = System.nanoTime();
                        List<List<Outcome>> outcomes = round(pool, connections, job);
                        nanos.add(System.nanoTime() - start);
                        byRound.add(residencyBefore(outcomes, prepared));
                        progress.roundDone();
                    }
                    endedAt = WallClock.epochMicros();
                    client = clientWindow.end();
                }
                ended = true;
                far = window.end();
            } finally {
                if (!ended) {
                    endQuietly(window);
                }
            }
        }
        // Outside the window: how the last round left the file, read without changing it.
        residencyAfter(byRound.get(byRound.size() - 1), prepareAll(pool, connections, job, true));
        List<Round> measured = new ArrayList<>();
        for (int r = 0; r < byRound.size(); r++) {
            measured.add(new Round(nanos.get(r), byRound.get(r).stream().flatMap(List::stream).toList()));
        }
        Set<String> own = own(connections);
        own.addAll(earlierRows);
        return Results.of(job, rounds.countSyscalls(), measured, client.usage(), far, own).measuredBetween(startedAt, endedAt);
    }

    /** The first of a round's transfers that failed verification: why, or null when all were verified. */
    private static String firstFailure(List<List<Outcome>> byConnection) {
        return byConnection.stream().flatMap(List::stream).map(Outcome::failure).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** The job's untimed preparation on every connection at once; null when it has none. */
    private static <C extends AutoCloseable> Prepared[] prepareAll(ExecutorService pool, List<C> connections, Job<C> job,
                                                                   boolean observeOnly) throws IOException {
        if (job.preparer() == null) {
            return null;
        }
        List<Future<Prepared>> futures = new ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            C c = connections.get(i);
            int index = i;
            futures.add(pool.submit(() -> job.preparer().prepare(c, index, observeOnly)));
        }
        Prepared[] out = new Prepared[futures.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = await(futures.get(i));
        }
        return out;
    }

    /** Each connection's transfers started from the residency its PREPARE left (where the transfer itself did not say). */
    private static List<List<Outcome>> residencyBefore(List<List<Outcome>> byConnection, Prepared[] prepared) {
        if (prepared == null) {
            return byConnection;
        }
        List<List<Outcome>> out = new ArrayList<>();
        for (int i = 0; i < byConnection.size(); i++) {
            int before = prepared[i].residencyPermille();
            out.add(new ArrayList<>(byConnection.get(i).stream()
                    .map(o -> o.residencyBefore() >= 0 ? o : o.withResidency(before, o.residencyAfter())).toList()));
        }
        return out;
    }

    /** Each connection's transfers left the residency its next PREPARE found (where the transfer itself did not say). */
    private static void residencyAfter(List<List<Outcome>> byConnection, Prepared[] next) {
        if (next == null) {
            return;
        }
        for (int i = 0; i < byConnection.size(); i++) {
            int after = next[i].residencyFoundPermille();
            byConnection.get(i).replaceAll(o -> o.residencyAfter() >= 0 ? o : o.withResidency(o.residencyBefore(), after));
        }
    }

    /** Body bytes this run's connections have moved so far, for the live progress line (0 for other connection types). */
    private static <C extends AutoCloseable> long bodyBytes(List<C> connections) {
        long sum = 0;
        for (C c : connections) {
            if (c instanceof XferConnection x) {
                sum += x.bodyBytes();
            }
        }
        return sum;
    }

    /** The local addresses of this run's connections, as the far side sees them. */
    private static <C extends AutoCloseable> Set<String> own(List<C> connections) throws IOException {
        Set<String> own = new HashSet<>();
        for (C c : connections) {
            if (c instanceof XferConnection x) {
                own.add(x.localAddress());
            }
            if (c instanceof LocalEndpoints e) {
                own.addAll(e.localAddresses());
            }
        }
        return own;
    }

    /** {@link #own}, leaving out a connection that can no longer tell its address (it failed, say). */
    private static <C extends AutoCloseable> Set<String> ownQuietly(List<C> connections) {
        Set<String> own = new HashSet<>();
        for (C c : connections) {
            try {
                own.addAll(own(List.of(c)));
            } catch (IOException | RuntimeException e) {
                // Not counted as this run's: at worst the next row says shared when it was not.
            }
        }
        return own;
    }

    /** Closes the far side's window after a failed round, so it does not count on until the next run. */
    private static void endQuietly(Window window) {
        try {
            window.end();
        } catch (IOException | RuntimeException ignored) {
            // The row fails with the round's error.
        }
    }

    /** {@code transfersPerRound} transfers on every connection at once; what each connection's transfers did. */
    private static <C extends AutoCloseable> List<List<Outcome>> round(ExecutorService pool, List<C> connections, Job<C> job)
            throws IOException {
        List<Future<List<Outcome>>> futures = new ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            C c = connections.get(i);
            int index = i;
            futures.add(pool.submit(() -> {
                List<Outcome> out = new ArrayList<>(job.transfersPerRound());
                for (int t = 0; t < job.transfersPerRound(); t++) {
                    out.add(job.transfer().run(c, index));
                }
                return out;
            }));
        }
        List<List<Outcome>> results = new ArrayList<>();
        for (Future<List<Outcome>> f : futures) {
            results.add(await(f));
        }
        return results;
    }

    private static <T> T await(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
