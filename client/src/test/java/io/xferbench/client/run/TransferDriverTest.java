package io.xferbench.client.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.method.Direction;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The driver with a fake far side: no network, no server. */
@Timeout(30)
class TransferDriverTest {
    /** A connection that only remembers it was closed. */
    static final class FakeConnection implements AutoCloseable {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void close() {
            closed.set(true);
        }
    }

    /** A far side: counts transfers inside and outside its window and answers MEASURE_END with fixed numbers. */
    static final class FarSide {
        final AtomicBoolean open = new AtomicBoolean();
        final AtomicInteger inWindow = new AtomicInteger();
        final AtomicInteger outside = new AtomicInteger();
        final AtomicInteger begins = new AtomicInteger();
        final AtomicInteger ends = new AtomicInteger();
        final List<FakeConnection> connections = new CopyOnWriteArrayList<>();

        TransferDriver.Job<FakeConnection> job(Direction direction, long size, int perRound, TransferDriver.Transfer<FakeConnection> transfer) {
            return new TransferDriver.Job<>(MethodResult.Row.served(direction, "m", size), perRound, () -> {
                FakeConnection c = new FakeConnection();
                connections.add(c);
                return c;
            }, (c, index) -> {
                (open.get() ? inWindow : outside).incrementAndGet();
                return transfer.run(c, index);
            }, conns -> new TransferDriver.Window() {
                @Override
                public void begin() {
                    begins.incrementAndGet();
                    open.set(true);
                }

                @Override
                public MeasurementReport end() throws IOException {
                    ends.incrementAndGet();
                    open.set(false);
                    return ProtocolJson.read(("{\"cpuUserSeconds\": 0.5, \"cpuSystemSeconds\": 1.5, \"syscalls\": {\"total\": 1000,"
                            + " \"bySyscall\": {\"read\": 400, \"write\": 400, \"splice\": 0}, \"ioUringSubmissions\": 0}}")
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8), MeasurementReport.class);
                }
            });
        }
    }

    private static Outcome ok(long bytes) {
        return new Outcome(bytes, 2_000_000, null, 1000, 1000, 1_000_000, -1, -1);
    }

    @Test
    void warmUpRunsOutsideTheWindowAndEveryMeasuredTransferInsideIt() {
        FarSide far = new FarSide();
        TransferDriver driver = new TransferDriver(new TransferDriver.Rounds(3, 2, 4, true));
        MethodResult r = driver.run(far.job(Direction.DOWNLOAD, 1 << 20, 5, (c, i) -> ok(1 << 20)), null);
        assertThat(r.status()).isEqualTo(MethodResult.Status.MEASURED);
        assertThat(far.outside.get()).as("warm-up: 2 rounds x 4 connections x 5").isEqualTo(40);
        assertThat(far.inWindow.get()).as("measured: 3 rounds x 4 connections x 5").isEqualTo(60);
        assertThat(far.begins.get()).isEqualTo(1);
        assertThat(far.ends.get()).isEqualTo(1);
        assertThat(r.throughput().transfers()).isEqualTo(60);
        assertThat(r.throughput().bytes()).isEqualTo(60L << 20);
        assertThat(r.throughput().repeatMibPerSec()).hasSize(3);
        assertThat(r.syscallCounts().perTransfer()).isCloseTo(1000 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r.syscallCounts().byName()).containsEntry("read", 400L).containsEntry("other", 200L).doesNotContainKey("splice");
        assertThat(r.latencyMillis().p50()).isCloseTo(2.0, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(far.connections).hasSize(4).allMatch(c -> c.closed.get());
    }

    @Test
    void eachConnectionKnowsItsIndex() {
        FarSide far = new FarSide();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        new TransferDriver(new TransferDriver.Rounds(1, 0, 3, true)).run(far.job(Direction.UPLOAD, 10, 1, (c, i) -> {
            seen.add(i);
            return ok(10);
        }), null);
        assertThat(seen).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void oneBadTransferFailsTheRow() {
        FarSide far = new FarSide();
        AtomicInteger n = new AtomicInteger();
        MethodResult r = new TransferDriver(new TransferDriver.Rounds(3, 0, 1, true)).run(far.job(Direction.DOWNLOAD, 100, 1, (c, i) ->
                n.incrementAndGet() == 2 ? new Outcome(99, 1000, "received 99 bytes, expected 100", -1, -1, -1, -1, -1) : ok(100)), null);
        assertThat(r.status()).isEqualTo(new MethodResult.Status.Failed("verification failed: received 99 bytes, expected 100"));
    }

    @Test
    void aBadTransferInAWarmUpRoundFailsTheRowBeforeAnythingIsMeasured() {
        FarSide far = new FarSide();
        // A far side that lies only while nothing is measured: the second warm-up round's third transfer.
        AtomicInteger n = new AtomicInteger();
        MethodResult r = new TransferDriver(new TransferDriver.Rounds(3, 2, 2, true)).run(far.job(Direction.DOWNLOAD, 100, 2, (c, i) ->
                n.incrementAndGet() == 7 ? new Outcome(100, 1000, "CRC32C mismatch: received 00000001, expected 00000002", -1, -1, -1, -1, -1)
                        : ok(100)), null);
        assertThat(r.status()).isEqualTo(new MethodResult.Status.Failed("verification failed in warm-up round 2: CRC32C mismatch: received 00000001, expected 00000002"));
        assertThat(far.inWindow.get()).as("no measured round after it").isZero();
        assertThat(far.begins.get()).isZero();
        assertThat(far.connections).allMatch(c -> c.closed.get());
    }

    @Test
    void aMethodTheFarSideCannotRunIsSkippedWithItsReason() {
        FarSide far = new FarSide();
        TransferDriver driver = new TransferDriver(new TransferDriver.Rounds(1, 1, 1, true));
        MethodResult listed = driver.run(far.job(Direction.UPLOAD, 1, 1, (c, i) -> ok(1)), "no io_uring on this kernel");
        assertThat(listed.status()).isEqualTo(new MethodResult.Status.Skipped("no io_uring on this kernel"));
        assertThat(far.connections).as("nothing was tried").isEmpty();

        MethodResult refused = driver.run(far.job(Direction.UPLOAD, 1, 1, (c, i) -> {
            throw new RemoteException(Status.UNAVAILABLE, "epoll-splice: cannot receive 3 GiB");
        }), null);
        assertThat(refused.status()).isEqualTo(new MethodResult.Status.Skipped("epoll-splice: cannot receive 3 GiB"));
    }

    @Test
    void otherErrorsFailTheRowAndStillEndTheWindow() {
        FarSide far = new FarSide();
        TransferDriver driver = new TransferDriver(new TransferDriver.Rounds(2, 0, 2, true));
        AtomicInteger n = new AtomicInteger();
        MethodResult r = driver.run(far.job(Direction.RELAY, 1, 1, (c, i) -> {
            if (n.incrementAndGet() == 3) {
                throw new RemoteException(Status.VERIFY_FAILED, "CRC32C mismatch");
            }
            return ok(1);
        }), null);
        assertThat(cause(r)).contains("VERIFY_FAILED").contains("CRC32C mismatch");
        assertThat(far.ends.get()).as("the far side's window is closed").isEqualTo(1);
        assertThat(far.open.get()).isFalse();

        MethodResult broken = driver.run(far.job(Direction.RELAY, 1, 1, (c, i) -> {
            throw new IOException("connection reset");
        }), null);
        assertThat(cause(broken)).contains("connection reset");
        assertThat(far.connections).allMatch(c -> c.closed.get());
    }

    @Test
    void noSyscallsLeavesTheCountsOutAndSaysWhy() {
        FarSide far = new FarSide();
        MethodResult r = new TransferDriver(new TransferDriver.Rounds(1, 0, 1, false)).run(far.job(Direction.DOWNLOAD, 1, 1, (c, i) -> ok(1)), null);
        assertThat(r.syscallCounts().byName()).isNull();
        assertThat(r.syscallCounts().perGiB()).isNull();
        assertThat(r.syscallCounts().unavailable()).isEqualTo(Results.NOT_REQUESTED);
        assertThat(r.serverCpu().userSeconds()).isEqualTo(0.5);
    }

    @Test
    void roundsAreChecked() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TransferDriver.Rounds(0, 0, 1, true))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TransferDriver.Rounds(1, -1, 1, true))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void preparationRunsBeforeEachRoundOutsideItsTimeAndGivesTheResidencies() {
        FarSide far = new FarSide();
        AtomicInteger prepares = new AtomicInteger();
        AtomicBoolean preparing = new AtomicBoolean();
        List<Boolean> observed = java.util.Collections.synchronizedList(new ArrayList<>());
        TransferDriver.Job<FakeConnection> plain = far.job(Direction.DOWNLOAD, 1 << 20, 1,
                (c, i) -> {
                    assertThat(preparing.get()).as("no transfer while preparing").isFalse();
                    return new Outcome(1 << 20, 1_000_000, null, -1, -1, 500_000, -1, -1);
                });
        TransferDriver.Job<FakeConnection> job = new TransferDriver.Job<>(plain.row(), 1, plain.connector(), plain.transfer(),
                plain.window(), (c, i, observeOnly) -> {
                    observed.add(observeOnly);
                    preparing.set(true);
                    try {
                        Thread.sleep(1000); // a slow eviction: must not show in the rounds' time
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    preparing.set(false);
                    int k = prepares.getAndIncrement();
                    return new io.xferbench.core.protocol.Prepared(100 + k, 900 - k, 1_000_000_000L);
                });
        MethodResult r = new TransferDriver(new TransferDriver.Rounds(2, 0, 1, true)).run(job, null);
        assertThat(r.status()).isEqualTo(MethodResult.Status.MEASURED);
        // set-up (0), before round 0 (1), before round 1 (2), after the window (3)
        assertThat(prepares.get()).isEqualTo(4);
        // The last only reads how the last round left the file: it must not evict or warm it again.
        assertThat(observed).containsExactly(false, false, false, true);
        assertThat(r.throughput().seconds()).as("two rounds of instant transfers; each prepare took 1 s").isLessThan(1.0);
        // before: as the round's PREPARE left it (899, 898); after: as the next PREPARE found it (102, 103).
        assertThat(r.residencyPermille()).isEqualTo(new MethodResult.Residency(898, 102));
        assertThat(far.inWindow.get()).isEqualTo(2);
    }

    /** The cause of a failed row; fails the test for a measured or skipped one. */
    private static String cause(MethodResult r) {
        assertThat(r.status()).isInstanceOf(MethodResult.Status.Failed.class);
        return ((MethodResult.Status.Failed) r.status()).cause();
    }
}
