package io.xferbench.core.pipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.ProcessResources;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PipePoolTest {
    private static final int DEFAULT = 64 * 1024;

    @BeforeEach
    void nativeShim() {
        MethodAssumptions.assumeAvailable("pipe pool (raw splice)", RawSplice.availability());
    }

    @Test
    void aReleasedPipeComesBackToTheSameThread() throws Exception {
        try (PipePool pool = new PipePool(DEFAULT, 4, true)) {
            Splice.Pipe first = pool.acquire();
            pool.release(first, true);
            Splice.Pipe second = pool.acquire();
            assertThat(second).isSameAs(first);
            pool.release(second, true);
            assertThat(pool.stats()).isEqualTo(new PipePool.Stats(1, 1, 0, 0, 0, 1));
        }
    }

    @Test
    void withoutThreadLocalTheSharedPoolServesOtherThreads() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (PipePool pool = new PipePool(DEFAULT, 4, false)) {
            Splice.Pipe p = pool.acquire();
            pool.release(p, true);
            assertThat(other.submit(pool::acquire).get()).isSameAs(p);
            assertThat(pool.stats().sharedHits()).isEqualTo(1);
            assertThat(pool.stats().threadLocalHits()).isZero();
            pool.release(p, true);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void aSecondPipeOfTheSameThreadGoesToTheSharedPool() throws Exception {
        try (PipePool pool = new PipePool(DEFAULT, 4, true)) {
            Splice.Pipe a = pool.acquire();
            Splice.Pipe b = pool.acquire();
            assertThat(b).isNotSameAs(a);
            pool.release(a, true); // the slot
            pool.release(b, true); // the slot is taken: shared
            assertThat(pool.stats().idleInSlots()).isEqualTo(1);
            assertThat(pool.stats().idleShared()).isEqualTo(1);
            assertThat(pool.acquire()).isSameAs(a);
            assertThat(pool.acquire()).isSameAs(b);
            assertThat(pool.stats().created()).isEqualTo(2);
        }
    }

    @Test
    void theSharedPoolIsBoundedAndClosesTheSurplus() throws Exception {
        ProcessResources before = ProcessResources.sample();
        List<Splice.Pipe> pipes = new ArrayList<>();
        try (PipePool pool = new PipePool(DEFAULT, 3, false)) {
            for (int i = 0; i < 5; i++) {
                pipes.add(pool.acquire());
            }
            assertThat(ProcessResources.sample().pipes() - before.pipes()).isEqualTo(10); // 2 fds per pipe
            pipes.forEach(p -> pool.release(p, true));
            PipePool.Stats s = pool.stats();
            assertThat(s.idleShared()).isEqualTo(3);
            assertThat(s.closed()).isEqualTo(2);
            assertThat(ProcessResources.sample().pipes() - before.pipes()).isEqualTo(6);
            assertThatThrownBy(() -> pipes.get(4).readFd()).as("the surplus pipe is closed").isInstanceOf(IllegalStateException.class);
        }
        assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
    }

    @Test
    void shrinkingClosesIdlePipesAtOnce() throws Exception {
        ProcessResources before = ProcessResources.sample();
        try (PipePool pool = new PipePool(DEFAULT, 8, false)) {
            List<Splice.Pipe> pipes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                pipes.add(pool.acquire());
            }
            pipes.forEach(p -> pool.release(p, true));
            pool.maxIdle(2);
            assertThat(pool.stats().idleShared()).isEqualTo(2);
            assertThat(ProcessResources.sample().pipes() - before.pipes()).isEqualTo(4);
            pool.maxIdle(0);
            assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
            Splice.Pipe p = pool.acquire();
            pool.release(p, true);
            assertThat(pool.stats().idleShared()).isZero();
            assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
        }
    }

    @Test
    void aPipeThatMayHoldBytesIsNeverReused() throws Exception {
        try (PipePool pool = new PipePool(DEFAULT, 4, true)) {
            Splice.Pipe p = pool.acquire();
            pool.release(p, false);
            assertThatThrownBy(p::readFd).isInstanceOf(IllegalStateException.class);
            assertThat(pool.acquire()).isNotSameAs(p);
            assertThat(pool.stats().created()).isEqualTo(2);
        }
    }

    @Test
    void closeClosesEveryIdlePipeIncludingOtherThreadsSlotsAndRefusesMore() throws Exception {
        ProcessResources before = ProcessResources.sample();
        PipePool pool = new PipePool(DEFAULT, 4, true);
        int threads = 3;
        CyclicBarrier acquired = new CyclicBarrier(threads);
        CountDownLatch parked = new CountDownLatch(threads);
        CountDownLatch done = new CountDownLatch(1);
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(workers.submit(() -> {
                    Splice.Pipe p = pool.acquire();
                    Splice.Pipe q = pool.acquire();
                    acquired.await(10, TimeUnit.SECONDS); // no thread takes another's released pipe
                    pool.release(p, true); // slot
                    pool.release(q, true); // shared
                    parked.countDown();
                    done.await();
                    return null;
                }));
            }
            assertThat(parked.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.stats().idleInSlots()).isEqualTo(threads);
            assertThat(pool.stats().idleShared()).isEqualTo(threads);
            assertThat(ProcessResources.sample().pipes() - before.pipes()).isEqualTo(4L * threads);
            pool.close();
            assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
            assertThatThrownBy(pool::acquire).isInstanceOf(IllegalStateException.class);
            done.countDown();
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            done.countDown();
            workers.shutdownNow();
        }
    }

    @Test
    void aReleaseAfterCloseClosesThePipe() throws Exception {
        ProcessResources before = ProcessResources.sample();
        PipePool pool = new PipePool(DEFAULT, 4, true);
        Splice.Pipe p = pool.acquire();
        pool.close();
        pool.release(p, true);
        assertThatThrownBy(p::readFd).isInstanceOf(IllegalStateException.class);
        assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
    }

    @Test
    void pipesParkedByThreadsThatEndedAreTakenBackBeforeANewPipeIsOpened() throws Exception {
        ProcessResources before = ProcessResources.sample();
        try (PipePool pool = new PipePool(DEFAULT, 4, true)) {
            List<Splice.Pipe> seen = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Thread t = new Thread(() -> {
                    try {
                        Splice.Pipe p = pool.acquire();
                        synchronized (seen) {
                            seen.add(p);
                        }
                        pool.release(p, true); // parked in this short-lived thread's slot
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                t.start();
                t.join();
            }
            // Each new thread found the pipe the previous (ended) thread parked: one pipe for all 20.
            assertThat(pool.stats().created()).isEqualTo(1);
            assertThat(seen).allMatch(p -> p == seen.get(0));
            assertThat(ProcessResources.sample().pipes() - before.pipes()).isEqualTo(2);
            pool.trim();
            assertThat(pool.stats().idleInSlots()).isZero();
            assertThat(pool.stats().idleShared()).isEqualTo(1);
        }
        assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
    }

    @Test
    void pipesHaveThePoolsCapacityAndSharedPoolsAreKeyedByWhatTheKernelGives() throws Exception {
        int max = Splice.Pipe.maxSize();
        try (PipePool pool = new PipePool(1 << 20, 1, false)) {
            Splice.Pipe p = pool.acquire();
            assertThat(p.size()).isEqualTo(Math.min(1 << 20, max));
            pool.release(p, true);
        }
        assertThat(PipePool.capacityFor(1)).isEqualTo(4096);
        assertThat(PipePool.capacityFor(1024)).isEqualTo(4096);
        assertThat(PipePool.capacityFor(5000)).isEqualTo(8192);
        assertThat(PipePool.capacityFor(3 * 4096)).isEqualTo(16384);
        assertThat(PipePool.capacityFor(Integer.MAX_VALUE)).isEqualTo(PipePool.capacityFor(max));
        assertThat(PipePool.shared(1024)).isSameAs(PipePool.shared(4096));
        assertThat(PipePool.shared(65536)).isNotSameAs(PipePool.shared(4096));
        Splice.Pipe small = PipePool.shared(1000).acquire();
        try {
            assertThat(small.size()).isEqualTo(4096);
        } finally {
            PipePool.shared(1000).release(small, true);
        }
    }

    @Test
    void manyThreadsHammeringThePoolLeakNothing() throws Exception {
        ProcessResources before = ProcessResources.sample();
        ExecutorService workers = Executors.newFixedThreadPool(4);
        try (PipePool pool = new PipePool(DEFAULT, 2, true)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(workers.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        Splice.Pipe a = pool.acquire();
                        Splice.Pipe b = pool.acquire();
                        pool.release(b, i % 7 != 0);
                        pool.release(a, true);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
            PipePool.Stats s = pool.stats();
            assertThat(s.idleShared()).isLessThanOrEqualTo(2);
            assertThat(s.idleInSlots()).isLessThanOrEqualTo(4);
            assertThat(s.created() - s.closed()).as("open pipes = idle pipes").isEqualTo(s.idleShared() + s.idleInSlots());
        } finally {
            workers.shutdownNow();
        }
        assertThat(ProcessResources.sample().pipes()).isEqualTo(before.pipes());
    }
}
