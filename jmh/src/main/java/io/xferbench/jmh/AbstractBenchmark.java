package io.xferbench.jmh;

import io.xferbench.nativeio.JvmFlags;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every benchmark here has in common (the pattern of Netty's {@code AbstractMicrobenchmark}): JMH reads these
 * annotations from the superclass, so a benchmark states only where it differs (ShimCallBenchmark: average time in
 * ns). Forks and iterations can be changed for a run without editing them: {@code -D} properties read by
 * {@link BenchMain}, or JMH's own {@code -f}/{@code -wi}/{@code -i}, which win.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = AbstractBenchmark.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = AbstractBenchmark.ITERATIONS, time = 1)
@Fork(value = AbstractBenchmark.FORKS, jvmArgsAppend = {JvmFlags.OPEN_NIO, JvmFlags.OPEN_IO, JvmFlags.NATIVE_ACCESS, ForkJvm.XMS, ForkJvm.XMX})
public abstract class AbstractBenchmark {
    /** Two forks: a result that depends on one JVM's JIT or layout luck shows as a spread. */
    public static final int FORKS = 2;
    public static final int WARMUP_ITERATIONS = 3;
    public static final int ITERATIONS = 5;

    static {
        ForkWatchdog.start();
    }
}
