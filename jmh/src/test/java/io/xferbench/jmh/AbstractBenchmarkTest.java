package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/** What the generated benchmark list says: every benchmark gets the shared base's settings. */
class AbstractBenchmarkTest {

    private static Set<BenchmarkListEntry> all() {
        return BenchmarkList.defaultList().getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                java.util.List.of());
    }

    @Test
    void everyBenchmarkExtendsTheBase() throws Exception {
        Set<String> classes = new TreeSet<>();
        for (BenchmarkListEntry e : all()) {
            Class<?> c = Class.forName(e.getUserClassQName());
            assertThat(AbstractBenchmark.class).as(c.getName()).isAssignableFrom(c);
            classes.add(c.getSimpleName());
        }
        assertThat(classes).contains("FileToSocketBenchmark", "ControlBenchmark", "ShimCallBenchmark");
    }

    @Test
    void theBaseSetsForksIterationsAndTheForkJvmFlags() {
        for (BenchmarkListEntry e : all()) {
            assertThat(e.getForks().get()).as(e.getUsername()).isEqualTo(AbstractBenchmark.FORKS);
            assertThat(e.getWarmupIterations().get()).isEqualTo(AbstractBenchmark.WARMUP_ITERATIONS);
            assertThat(e.getMeasurementIterations().get()).isEqualTo(AbstractBenchmark.ITERATIONS);
            assertThat(e.getJvmArgsAppend().get()).containsAll(io.xferbench.nativeio.JvmFlags.required()).contains(ForkJvm.XMX);
            assertThat(e.getMode()).isEqualTo(e.getUserClassQName().endsWith("ShimCallBenchmark") ? Mode.AverageTime : Mode.Throughput);
        }
    }
}
