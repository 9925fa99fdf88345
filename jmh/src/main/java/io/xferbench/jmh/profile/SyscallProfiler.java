package io.xferbench.jmh.profile;

import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

/**
 * Kernel-counted syscalls per op, by syscall name ({@code -prof syscalls}, or this class's name).
 *
 * <p>In each fork it attaches {@code perf stat} to the fork's own pid once, with events off, just before the
 * first measurement iteration, and waits until perf has attached to every thread (threads started later
 * inherit the counters). Around each measurement iteration it switches the events on and off through perf's
 * control fifo; warm-up iterations are not counted. Attaching after warm-up matters: perf's counters are
 * inherited by every task a counted thread creates, processes included, so a process started by
 * {@code @Setup} after attaching (the drain of {@code FileToSocketBenchmark}) would be counted too; one that
 * already runs when perf attaches is not, because {@code -p} covers only the threads of this process. After the last measurement iteration it stops perf and reports
 * the counts divided by the ops JMH ran in those iterations ({@link SyscallResults}), as {@link RatioResult}s
 * that JMH aggregates over forks as Σ counts / Σ ops.
 *
 * <p>What is counted is the whole fork process: the benchmark thread, threads the benchmark starts (Netty
 * event loops), and the JVM's own threads (JIT, GC) and JMH's control thread; {@code ControlBenchmark}
 * measures that floor. The ops are JMH's "all ops" of the iteration, i.e. every invocation made while
 * counting.
 *
 * <p>Where perf cannot count (not root, perf_event_paranoid, no perf), it prints one line with the reason and
 * the run goes on without syscall results.
 *
 * <p>It also reports CPU per GiB moved over the same windows ({@link CpuResults}, from {@link ProcessCpu}), read
 * outside perf's counting: the whole process, an io_uring SQPOLL thread included, and that thread's part apart.
 */
public class SyscallProfiler implements InternalProfiler {

    /** What the profiler needs from a syscall counter; {@link PerfSyscallCounter} in real runs. */
    interface Counter {
        void enable() throws IOException;

        void disable() throws IOException;

        SyscallCounts stop() throws IOException;

        void close();
    }

    /** Attaches a counter to this process, or says why it cannot. */
    interface CounterFactory {
        Counter attach() throws IOException;
    }

    /**
     * Syscalls broken out by name: core's list plus what the JDK and Netty call on these paths that it lacks
     * ({@code newfstat} is {@code fstat} on x86-64: {@code transferTo} and {@code FileInputStream} call it).
     * Names this kernel has no tracepoint for are dropped; the rest of the total shows as {@code other}.
     */
    static final List<String> SYSCALLS = Stream.concat(PerfSyscallCounter.DEFAULT_SYSCALLS.stream(), Stream.of(
                    "newfstat", "fstatfs", "mprotect", "brk", "nanosleep", "rt_sigprocmask", "sched_getaffinity",
                    "getdents64", "socket", "connect", "setsockopt", "getsockopt", "getsockname", "shutdown", "eventfd2",
                    "epoll_create1", "io_uring_register", "dup", "dup3", "wait4", "clone", "clone3", "exit", "gettid",
                    "tgkill", "prctl", "restart_syscall", "sysinfo", "pselect6", "msync", "epoll_pwait2", "timerfd_create",
                    "timerfd_settime", "readlink", "statfs"))
            .distinct().toList();

    private final CounterFactory factory;
    private final ProcessCpu.Source cpu;
    private final PrintStream out;

    private Counter counter;
    private boolean gaveUp;
    private long ops;
    private long nanos;
    private long enabledAt;
    private int measured;
    private boolean cpuGaveUp;
    private ProcessCpu.Sample cpuAt;
    private ProcessCpu.Usage cpuUsed = ProcessCpu.Usage.ZERO;
    private long cpuOps;
    private int cpuMeasured;

    public SyscallProfiler() {
        this(SyscallProfiler::attachPerf, ProcessCpu::sample, System.out);
    }

    /** Without CPU results (null {@code cpu}), as the syscall tests want them. */
    SyscallProfiler(CounterFactory factory, PrintStream out) {
        this(factory, null, out);
    }

    SyscallProfiler(CounterFactory factory, ProcessCpu.Source cpu, PrintStream out) {
        this.factory = factory;
        this.cpu = cpu;
        this.out = out;
        this.cpuGaveUp = cpu == null;
    }

    @Override
    public String getDescription() {
        return "Kernel-counted syscalls per op by name, io_uring submissions and context switches "
                + "(perf stat on syscall tracepoints; whole fork process; measurement iterations only), "
                + "and CPU per GiB from /proc (the whole process, an io_uring SQPOLL thread's share apart)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return;
        }
        // Before perf counts: reading /proc makes syscalls of its own.
        sampleCpuBefore();
        if (gaveUp) {
            return;
        }
        try {
            if (counter == null) {
                if (benchmarkParams.getWarmup().getCount() == 0) {
                    out.println("# syscalls profiler: no warm-up iteration, so the first measurement iteration also counts "
                            + "@Setup(Level.Trial) (and any process it starts); use -wi 1 or more");
                }
                counter = factory.attach();
            }
            counter.enable();
            enabledAt = System.nanoTime();
        } catch (IOException e) {
            giveUp(e.getMessage());
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return List.of();
        }
        List<Result> out = new ArrayList<>(syscallsAfter(benchmarkParams, iterationParams, result));
        // After perf stopped counting.
        out.addAll(cpuAfter(benchmarkParams, iterationParams, result));
        return out;
    }

    private List<RatioResult> syscallsAfter(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                            IterationResult result) {
        if (gaveUp || counter == null) {
            return List.of();
        }
        try {
            counter.disable();
            nanos += System.nanoTime() - enabledAt;
            ops += result.getMetadata().getAllOps();
            if (++measured < iterationParams.getCount()) {
                return List.of();
            }
            SyscallCounts counts = counter.stop();
            counter = null;
            return SyscallResults.of(counts, ops, nanos, bytesPerOp(benchmarkParams));
        } catch (IOException e) {
            giveUp(e.getMessage());
            return List.of();
        }
    }

    private void sampleCpuBefore() {
        if (cpuGaveUp) {
            return;
        }
        try {
            cpuAt = cpu.sample();
        } catch (IOException | RuntimeException e) {
            cpuGaveUp = true;
            out.println("# syscalls profiler: no CPU per GiB in this fork: " + e.getMessage());
        }
    }

    private List<RatioResult> cpuAfter(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                       IterationResult result) {
        if (cpuGaveUp || cpuAt == null) {
            return List.of();
        }
        try {
            cpuUsed = cpuUsed.plus(cpuAt.until(cpu.sample()));
        } catch (IOException | RuntimeException e) {
            cpuGaveUp = true;
            out.println("# syscalls profiler: no CPU per GiB in this fork: " + e.getMessage());
            return List.of();
        }
        cpuAt = null;
        cpuOps += result.getMetadata().getAllOps();
        if (++cpuMeasured < iterationParams.getCount()) {
            return List.of();
        }
        return CpuResults.of(cpuUsed, cpuOps, bytesPerOp(benchmarkParams));
    }

    /** Bytes per op from the benchmark's {@code size} param, if it has one. */
    static OptionalLong bytesPerOp(BenchmarkParams params) {
        String size = params.getParam("size");
        if (size == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(size.strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private void giveUp(String reason) {
        gaveUp = true;
        out.println("# syscalls profiler: no syscall counts in this fork: " + reason);
        if (counter != null) {
            counter.close();
            counter = null;
        }
    }

    private static Counter attachPerf() throws IOException {
        Availability availability = PerfSyscallCounter.availability();
        if (!availability.isAvailable()) {
            throw new IOException(availability.unavailableReason());
        }
        PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid(), SYSCALLS);
        Thread cleanup = new Thread(perf::close, "xferbench-perf-cleanup");
        try {
            perf.awaitAttached();
            Runtime.getRuntime().addShutdownHook(cleanup);
        } catch (IOException | RuntimeException e) {
            perf.close();
            throw e;
        }
        return new Counter() {
            @Override
            public void enable() throws IOException {
                perf.enable();
            }

            @Override
            public void disable() throws IOException {
                perf.disable();
            }

            @Override
            public SyscallCounts stop() throws IOException {
                try {
                    return perf.stop();
                } finally {
                    removeHook();
                }
            }

            @Override
            public void close() {
                perf.close();
                removeHook();
            }

            private void removeHook() {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException ignored) {
                    // already shutting down: the hook runs anyway
                }
            }
        };
    }
}
