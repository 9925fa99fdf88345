package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.tls.TlsSettings;
import io.xferbench.jmh.gate.GatePolicy;
import io.xferbench.jmh.tls.TlsProviders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * JMH needs its parameter lists as constants, so they cannot be computed from the registry; this holds them to it
 * instead: a registered method missing from its benchmark without a declared reason fails here, and so does a
 * gate policy or baseline that forgot a socket-paced method.
 */
class BenchmarkParamsTest {

    private static List<String> params(Class<?> benchmark, String field) throws Exception {
        return List.of(benchmark.getField(field).getAnnotation(Param.class).value());
    }

    private static List<String> inJmh(List<? extends TransferMethod> methods) {
        return methods.stream().filter(m -> m.traits().inJmh()).map(TransferMethod::id).toList();
    }

    @Test
    void fileToSocketBenchmarksEveryDownloadMethod() throws Exception {
        assertThat(params(FileToSocketBenchmark.class, "method")).isEqualTo(inJmh(DownloadMethods.all()));
    }

    @Test
    void socketToFileBenchmarksEveryUploadReceiver() throws Exception {
        assertThat(params(SocketToFileBenchmark.class, "method")).isEqualTo(inJmh(UploadMethods.all()));
    }

    @Test
    void proxyRelayBenchmarksEveryRelay() throws Exception {
        assertThat(params(ProxyRelayBenchmark.class, "relay")).isEqualTo(inJmh(RelayMethods.all()));
    }

    @Test
    void theTlsBenchmarksRunEveryProviderAndSuite() throws Exception {
        assertThat(params(TlsEngineBenchmark.class, "provider")).isEqualTo(TlsProviders.all());
        assertThat(params(TlsHandshakeBenchmark.class, "provider")).isEqualTo(TlsProviders.all());
        assertThat(params(TlsEngineBenchmark.class, "cipher")).isEqualTo(TlsSettings.ALLOWED_CIPHERS);
        assertThat(TlsSettings.ALLOWED_CIPHERS).containsAll(params(TlsHandshakeBenchmark.class, "cipher"));
    }

    @Test
    void theGateBaselineKnowsEverySocketPacedMethod() throws Exception {
        JsonNode policy = new ObjectMapper().readTree(Path.of("gate", "baseline.json").toFile()).path("policy");
        List<String> stored = new ArrayList<>();
        policy.path("pacedRows").forEach(n -> stored.add(n.asText()));
        assertThat(stored).containsExactlyInAnyOrderElementsOf(GatePolicy.defaultPacedRows());
        assertThat(GatePolicy.DEFAULT.pacedRows()).containsExactlyElementsOf(GatePolicy.defaultPacedRows());
        assertThat(GatePolicy.defaultPacedRows()).contains("FileToSocketBenchmark:epoll-sendfile", "SocketToFileBenchmark");
    }
}
