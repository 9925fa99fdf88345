package io.xferbench.jmh.report;

import io.xferbench.jmh.tls.TlsProviders;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The TLS benchmarks' providers, and provider × suite pairs, that have no row in a run that has the benchmark, with the
 * reason where it is known here: a provider that cannot load, a provider (BoringSSL) that cannot be given a TLS 1.3
 * suite. A skipped row is said, never just absent.
 */
final class MissingTlsRows {
    static final List<String> BENCHMARKS = List.of("TlsEngineBenchmark.wrapUnwrap", "TlsHandshakeBenchmark.handshake");

    private MissingTlsRows() {
    }

    static List<String> notes(List<JmhReport.Row> rows) {
        List<String> notes = new ArrayList<>();
        for (String benchmark : BENCHMARKS) {
            List<JmhReport.Row> mine = rows.stream().filter(r -> r.benchmark().equals(benchmark)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            Set<String> ciphers = new LinkedHashSet<>();
            mine.forEach(r -> ciphers.add(r.params().get("cipher")));
            for (String provider : TlsProviders.all()) {
                Set<String> ran = new LinkedHashSet<>();
                mine.stream().filter(r -> provider.equals(r.params().get("provider"))).forEach(r -> ran.add(r.params().get("cipher")));
                String unavailable = TlsProviders.unavailableReason(provider);
                if (ran.isEmpty()) {
                    notes.add("No " + benchmark + " result for provider " + provider + ": "
                            + (unavailable != null ? "unavailable here: " + unavailable : "not selected, or failed (see the JMH log)"));
                    continue;
                }
                for (String cipher : ciphers) {
                    if (!ran.contains(cipher)) {
                        notes.add("No " + benchmark + " result for provider " + provider + " cipher " + cipher + ": "
                                + (TlsProviders.choosesTls13Suite(provider) ? "not selected, or failed (see the JMH log)"
                                : TlsProviders.openSslVersion() + " picks TLS 1.3 suites by its own order (the JMH log's SKIPPED line says which)"));
                    }
                }
            }
        }
        return notes;
    }
}
