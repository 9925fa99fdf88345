package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.jmh.profile.SyscallProfiler;
import io.xferbench.jmh.profile.SyscallResults;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What the JMH smoke tests share: a benchmark run for real, one short fork per parameter value with the syscall
 * profiler, and the checks every result passes before its counts are asserted.
 */
final class SyscallSmoke {
    private SyscallSmoke() {
    }

    /** Whether perf can count here; where not, the smoke tests run nothing and each test says why. */
    static boolean canCount() {
        return PerfSyscallCounter.availability().isAvailable();
    }

    /** {@code benchmark.method}, one fork of one warm-up and one measurement iteration, with the syscall profiler. */
    static ChainedOptionsBuilder quick(Class<?> benchmark, String method, TimeValue warmup, TimeValue measurement) {
        // Kernel counts, not timings, are asserted: another JMH run on the machine does not matter.
        System.setProperty("jmh.ignoreLock", "true");
        return new OptionsBuilder()
                .include(Pattern.quote(benchmark.getName()) + "\\." + method + "$")
                .forks(1)
                .warmupIterations(1)
                .warmupTime(warmup)
                .measurementIterations(1)
                .measurementTime(measurement)
                .addProfiler(SyscallProfiler.class)
                .shouldFailOnError(true);
    }

    /** Runs {@code options}, each result under its value of the benchmark parameter {@code param}. */
    static Map<String, RunResult> run(ChainedOptionsBuilder options, String param) throws RunnerException {
        Map<String, RunResult> results = new HashMap<>();
        for (RunResult r : new Runner(options.build()).run()) {
            results.put(r.getParams().getParam(param), r);
        }
        return results;
    }

    /**
     * The result under {@code key}, with a positive score and the syscall counts; the test is skipped (failed under
     * {@code XFERBENCH_REQUIRE_ALL_METHODS=1}) with the reason where perf cannot count or {@code what} cannot run.
     */
    static RunResult result(Map<String, RunResult> results, String key, String what, Availability availability) {
        MethodAssumptions.assumeAvailable("syscall smoke test", PerfSyscallCounter.availability());
        MethodAssumptions.assumeAvailable(what, availability);
        RunResult r = results.get(key);
        assertThat(r).as("JMH result for " + key).isNotNull();
        assertThat(r.getPrimaryResult().getScore()).as(key + " ops/s").isPositive();
        assertThat(r.getSecondaryResults()).as(key + " syscall results").containsKey(SyscallResults.TOTAL);
        return r;
    }

    /** A secondary result's score; one the profiler did not report (a syscall that never happened) is 0. */
    static double secondary(RunResult r, String label) {
        Result s = r.getSecondaryResults().get(label);
        return s == null ? 0 : s.getScore();
    }

    /** Calls per op of one syscall. */
    static double perOp(RunResult r, String syscall) {
        return secondary(r, SyscallResults.perOp(syscall));
    }
}
