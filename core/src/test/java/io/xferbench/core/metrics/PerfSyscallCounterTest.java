package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

/** Real perf on this very process: the kernel must see the reads we make, and none made while disabled. */
class PerfSyscallCounterTest {

    @Test
    void countsExactlyTheWindowBetweenEnableAndDisable() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        ByteBuffer buf = ByteBuffer.allocateDirect(16);
        try (FileChannel zero = FileChannel.open(Path.of("/dev/zero"), StandardOpenOption.READ);
             PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid())) {
            readTimes(zero, buf, 500); // before enable: must not count
            perf.enable();
            readTimes(zero, buf, 1000);
            Thread t = new Thread(() -> readTimes(zero, buf.duplicate(), 300)); // a thread born inside the window
            t.start();
            t.join();
            perf.disable();
            readTimes(zero, buf, 700); // after disable: must not count
            SyscallCounts c = perf.stop();
            // FileChannel.read on /dev/zero is one read(2) each; the JVM's own threads add a few, never hundreds.
            assertThat(c.of("read")).isBetween(1300L, 1400L);
            assertThat(c.total()).isGreaterThanOrEqualTo(c.of("read"));
            assertThat(c.of("sendfile64")).isZero();
        }
    }

    /**
     * perf -p opens its events thread by thread and gives up ("No such process") when one exits on the way, as io-wq
     * workers and short-lived JVM threads do: attach must still give a working counter, every time.
     */
    @Test
    void attachesWhileTheTargetsThreadsComeAndGo() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        java.util.concurrent.atomic.AtomicBoolean churn = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Thread> churners = new java.util.ArrayList<>();
        for (int i = 0; i < 1; i++) {
            churners.add(Thread.ofPlatform().daemon().start(() -> {
                while (churn.get()) {
                    // A thread that lives 100 ms, every 100 ms: some 10 exits a second, io-wq workers retiring after a burst.
                    Thread.ofPlatform().start(() -> LockSupport.parkNanos(100_000_000));
                    LockSupport.parkNanos(100_000_000);
                }
            }));
        }
        try {
            for (int i = 0; i < 15; i++) {
                try (PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid())) {
                    perf.enable();
                    perf.disable();
                    assertThat(perf.stop().total()).isGreaterThanOrEqualTo(0);
                }
            }
        } finally {
            churn.set(false);
            for (Thread t : churners) {
                t.join();
            }
        }
    }

    @Test
    void leavesNoFileBehindAndNoPerfRunningOnAnyPath() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        List<Path> before = perfDirs(tmp);
        // Stopped normally.
        PerfSyscallCounter stopped = PerfSyscallCounter.attach(ProcessHandle.current().pid());
        stopped.awaitAttached();
        assertThat(perfDirs(tmp)).as("nothing on disk while counting").isEqualTo(before);
        stopped.enable();
        stopped.disable();
        stopped.stop();
        assertThat(stopped.process().isAlive()).isFalse();
        // Closed without stopping (a window abandoned mid-way).
        PerfSyscallCounter abandoned = PerfSyscallCounter.attach(ProcessHandle.current().pid());
        abandoned.enable();
        abandoned.close();
        assertThat(abandoned.process().isAlive()).as("close waits for perf to end").isFalse();
        assertThat(perfDirs(tmp)).isEqualTo(before);
    }

    /** Directories the fifo-based counter used to create (and leave behind when the JVM was killed). */
    private static List<Path> perfDirs(Path tmp) throws java.io.IOException {
        try (var list = Files.list(tmp)) {
            return list.filter(p -> p.getFileName().toString().startsWith("xferbench-perf")).sorted().toList();
        }
    }

    private static void readTimes(FileChannel ch, ByteBuffer buf, int n) {
        try {
            for (int i = 0; i < n; i++) {
                ch.read(buf.clear());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
