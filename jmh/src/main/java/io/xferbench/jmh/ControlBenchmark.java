package io.xferbench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The syscall profiler's floor: an op that makes no syscall. Whatever the profiler counts here comes from the
 * harness and the JVM (JMH's control thread sleeping and waking, JIT compiler and GC threads, the profiler's
 * own enable/disable handshake with perf). Its {@code syscalls.total/s} is that floor as a rate; a benchmark at
 * N ops/s carries about floor/N of it in each syscalls/op figure (the report prints this bound).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkJvm.OPEN_NIO, ForkJvm.OPEN_IO, ForkJvm.NATIVE_ACCESS, ForkJvm.XMS, ForkJvm.XMX})
public class ControlBenchmark {

    @Benchmark
    public void noop() {
        // nothing: the floor
    }
}
