package io.xferbench.server.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoop;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What one turn of an event loop hands to the file pool ({@link FileWorkBatches}): counted hand-offs, each result back
 * on the loop once, and the refusals of a stopping server.
 */
@Timeout(30)
class FileWorkBatchesTest {
    private final DefaultEventLoop loop = new DefaultEventLoop();
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    /** Tasks given to the loop (by the batches: their flushes and returning results). */
    private final AtomicInteger loopTasks = new AtomicInteger();
    private final Executor countedLoop = task -> {
        loopTasks.incrementAndGet();
        loop.execute(task);
    };
    private final AtomicInteger poolTasks = new AtomicInteger();
    private final Executor countedPool = task -> {
        poolTasks.incrementAndGet();
        pool.execute(task);
    };

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void oneTurnsRequestsGoToThePoolAsOneTaskPerBatchAndComeBackAsOne() throws Exception {
        FileWorkBatches batches = new FileWorkBatches(countedLoop, countedPool);
        int requests = 40; // 3 batches of at most 16
        List<Integer> results = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger offLoop = new AtomicInteger();
        AtomicInteger onPool = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(requests);
        loop.execute(() -> {
            for (int i = 0; i < requests; i++) {
                int n = i;
                batches.submit(() -> {
                    if (loop.inEventLoop()) {
                        onPool.decrementAndGet();
                    } else {
                        onPool.incrementAndGet();
                    }
                    return n;
                }, r -> {
                    if (!loop.inEventLoop()) {
                        offLoop.incrementAndGet();
                    }
                    results.add(r);
                    done.countDown();
                }, e -> done.countDown(), () -> done.countDown());
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        // One request a hand-off was 40 pool tasks and 40 loop tasks back.
        assertThat(poolTasks.get()).isEqualTo(3);
        assertThat(loopTasks.get()).isEqualTo(1 + 3);
        assertThat(onPool.get()).isEqualTo(requests);
        assertThat(offLoop.get()).isZero();
        assertThat(results).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, requests).boxed().toList());
    }

    @Test
    void eachTurnIsItsOwnBatch() throws Exception {
        FileWorkBatches batches = new FileWorkBatches(countedLoop, countedPool);
        CountDownLatch done = new CountDownLatch(4);
        for (int turn = 0; turn < 2; turn++) {
            CountDownLatch turnDone = new CountDownLatch(2);
            loop.execute(() -> {
                for (int i = 0; i < 2; i++) {
                    batches.submit(() -> 1, r -> {
                        turnDone.countDown();
                        done.countDown();
                    }, e -> { }, () -> { });
                }
            });
            assertThat(turnDone.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(poolTasks.get()).isEqualTo(2);
    }

    @Test
    void aFailureGoesToItsOwnRequestAndAThrowingContinuationDoesNotStopTheOthers() throws Exception {
        FileWorkBatches batches = new FileWorkBatches(countedLoop, countedPool);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(2);
        loop.execute(() -> {
            batches.submit(() -> "first", r -> {
                seen.add(r);
                throw new IllegalStateException("a continuation's bug");
            }, e -> seen.add("failure " + e), () -> { });
            batches.submit(() -> {
                throw new IOException("no such file");
            }, r -> seen.add("result " + r), e -> {
                seen.add("failure " + e.getMessage());
                done.countDown();
            }, () -> { });
            batches.submit(() -> "third", r -> {
                seen.add(r);
                done.countDown();
            }, e -> { }, () -> { });
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).containsExactly("first", "failure no such file", "third");
    }

    @Test
    void aStoppedPoolRefusesEveryRequestOfTheTurnOnTheLoop() throws Exception {
        FileWorkBatches batches = new FileWorkBatches(countedLoop, task -> {
            throw new RejectedExecutionException("shut down");
        });
        AtomicInteger refusedOnLoop = new AtomicInteger();
        AtomicBoolean ran = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(20);
        loop.execute(() -> {
            for (int i = 0; i < 20; i++) {
                batches.submit(() -> {
                    ran.set(true);
                    return 1;
                }, r -> ran.set(true), e -> ran.set(true), () -> {
                    if (loop.inEventLoop()) {
                        refusedOnLoop.incrementAndGet();
                    }
                    done.countDown();
                });
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(refusedOnLoop.get()).isEqualTo(20);
        assertThat(ran).isFalse();
    }

    @Test
    void aStoppingLoopRefusesEachRequestAtOnceAndRunsNone() {
        FileWorkBatches batches = new FileWorkBatches(task -> {
            throw new RejectedExecutionException("loop stopping");
        }, countedPool);
        AtomicInteger refused = new AtomicInteger();
        AtomicBoolean ran = new AtomicBoolean();
        for (int i = 0; i < 2; i++) {
            batches.submit(() -> {
                ran.set(true);
                return 1;
            }, r -> ran.set(true), e -> ran.set(true), refused::incrementAndGet);
        }
        assertThat(refused).hasValue(2);
        assertThat(ran).isFalse();
        assertThat(poolTasks).hasValue(0);
    }

    @Test
    void aResultTheStoppedLoopCannotTakeIsClosed() throws Exception {
        CountDownLatch closed = new CountDownLatch(2);
        AtomicBoolean loopStopped = new AtomicBoolean();
        Executor stoppingLoop = task -> {
            if (loopStopped.get()) {
                throw new RejectedExecutionException("loop stopped");
            }
            loop.execute(task);
        };
        FileWorkBatches batches = new FileWorkBatches(stoppingLoop, task -> pool.execute(() -> {
            loopStopped.set(true);
            task.run();
        }));
        AtomicBoolean delivered = new AtomicBoolean();
        loop.execute(() -> {
            for (int i = 0; i < 2; i++) {
                batches.submit(() -> (AutoCloseable) closed::countDown, r -> delivered.set(true), e -> delivered.set(true), () -> { });
            }
        });
        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(delivered).isFalse();
    }
}
