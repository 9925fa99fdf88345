package io.xferbench.jmh;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * The syscall profiler's floor: an op that makes no syscall. Whatever the profiler counts here comes from the
 * harness and the JVM (JMH's control thread sleeping and waking, JIT compiler and GC threads, the profiler's
 * own enable/disable handshake with perf). Its {@code syscalls.total/s} is that floor as a rate; a benchmark at
 * N ops/s carries about floor/N of it in each syscalls/op figure (the report prints this bound).
 */
public class ControlBenchmark extends AbstractBenchmark {

    @Benchmark
    public void noop() {
        // nothing: the floor
    }
}
