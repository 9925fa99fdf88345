package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.jmh.profile.SyscallProfiler;
import io.xferbench.jmh.profile.SyscallResults;
import io.xferbench.jmh.tls.TlsProviders;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The TLS family for real: {@link TlsEngineBenchmark} (16 KiB, TLS_AES_128_GCM_SHA256, the suite BoringSSL picks too)
 * and {@link TlsHandshakeBenchmark}, per provider available here, one short fork each, with JMH's gc profiler and,
 * where perf can count, the syscall profiler. What is asserted are facts, not speeds: the MiB counter is ops × size,
 * an in-memory op of the OpenSSL engine makes no syscall, the gc profiler reports the bytes an op allocates. A provider that cannot load here
 * is skipped with its reason (fails instead under {@code XFERBENCH_REQUIRE_ALL_METHODS=1}).
 */
class TlsSmokeTest {
    private static final int SIZE = 16 << 10;
    private static final String CIPHER = "TLS_AES_128_GCM_SHA256";
    private static final Map<String, RunResult> results = new HashMap<>();

    @BeforeAll
    static void runJmh() throws Exception {
        String[] providers = TlsProviders.all().stream().filter(p -> TlsProviders.unavailableReason(p) == null).toArray(String[]::new);
        System.setProperty("jmh.ignoreLock", "true");
        for (RunResult r : new Runner(quick(TlsEngineBenchmark.class, "wrapUnwrap").param("provider", providers)
                .param("cipher", CIPHER).param("size", Integer.toString(SIZE)).build()).run()) {
            results.put("wrapUnwrap " + r.getParams().getParam("provider"), r);
        }
        for (RunResult r : new Runner(quick(TlsHandshakeBenchmark.class, "handshake").param("provider", providers)
                .param("cipher", CIPHER).build()).run()) {
            results.put("handshake " + r.getParams().getParam("provider"), r);
        }
    }

    private static ChainedOptionsBuilder quick(Class<?> benchmark, String method) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(Pattern.quote(benchmark.getName()) + "\\." + method + "$")
                .forks(1)
                .warmupIterations(1)
                .warmupTime(TimeValue.milliseconds(500))
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(700))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true);
        return PerfSyscallCounter.availability().isAvailable() ? options.addProfiler(SyscallProfiler.class) : options;
    }

    private static RunResult result(String benchmark, String provider) {
        MethodAssumptions.assumeAvailable(provider, new Availability(TlsProviders.unavailableReason(provider)));
        RunResult r = results.get(benchmark + " " + provider);
        assertThat(r).as("JMH result for " + benchmark + " " + provider).isNotNull();
        assertThat(r.getPrimaryResult().getScore()).as(provider + " ops/s").isPositive();
        return r;
    }

    private static double secondary(RunResult r, String label) {
        Result s = r.getSecondaryResults().get(label);
        assertThat(s).as(label + " of " + r.getParams().getBenchmark()).isNotNull();
        return s.getScore();
    }

    private static RunResult wrapsAndUnwraps(String provider) {
        RunResult r = result("wrapUnwrap", provider);
        double ops = r.getPrimaryResult().getScore();
        // The MiB counter and the primary score count the same invocations over the same time.
        assertThat(secondary(r, "MiB")).as("MiB/s = ops/s × 16 KiB").isCloseTo(ops * SIZE / (1 << 20), Percentage.withPercentage(2));
        assertThat(secondary(r, "gc.alloc.rate.norm")).as("bytes allocated per op").isNotNegative();
        MethodAssumptions.assumeAvailable("syscall counts", PerfSyscallCounter.availability());
        assertThat(r.getSecondaryResults()).containsKey(SyscallResults.TOTAL);
        return r;
    }

    /**
     * Not its syscalls: in a half-second warm-up C2 has not compiled the JDK's AES-GCM yet, and the cold JIT's
     * mprotects and the GC's futexes show per op (5.6/op, 87 KB allocated per op, on the loaded 2-core machine).
     */
    @Test
    void theJdkEngineWrapsAndUnwrapsInMemory() {
        wrapsAndUnwraps(TlsProviders.JDK);
    }

    @Test
    void theOpenSslEngineWrapsAndUnwrapsInMemoryWithoutASyscall() {
        RunResult r = wrapsAndUnwraps(TlsProviders.OPENSSL);
        // No socket, and the cipher is native code: what is left is the harness's floor (tens per second) spread over
        // thousands of ops per second.
        assertThat(secondary(r, SyscallResults.TOTAL)).as("syscalls/op").isLessThan(0.05);
    }

    @Test
    void eachProviderHandshakes() {
        for (String provider : List.of(TlsProviders.JDK, TlsProviders.OPENSSL)) {
            if (TlsProviders.unavailableReason(provider) == null) {
                assertThat(secondary(result("handshake", provider), "gc.alloc.rate.norm")).as(provider + " bytes per handshake").isPositive();
            }
        }
        result("handshake", TlsProviders.JDK);
    }
}
