package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.proxy.ProxyConfig;
import io.xferbench.server.proxy.XferProxy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A connection holding an open measurement window waits, by design, for the end of other connections' run: a load run
 * or a transfer longer than the idle timeout must still get its window's report. A connection without a window is
 * still closed after the idle timeout.
 */
@Timeout(60)
class WindowOutlivesIdleTimeoutTest {
    private static final Duration IDLE = Duration.ofSeconds(1);
    /** Two and a half idle timeouts: the deadlines are checked every 100 ms. */
    private static final long SILENCE_MILLIS = 2_500;

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aWindowsConnectionIsNotClosedAsIdle(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        // Each connection sends its request as soon as it is open: a connection's idle timeout runs from its accept,
        // and the other's request can take longer than that on a loaded machine (perf attaching for MEASURE_BEGIN took
        // seconds, and the idle connection, opened before it, was rightly closed before its INFO was sent).
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE));
             XferConnection idle = XferConnection.open("127.0.0.1", server.port(), "")) {
            idle.control(Op.INFO);
            try (XferConnection observer = XferConnection.open("127.0.0.1", server.port(), "")) {
                observer.control(Op.MEASURE_BEGIN);
                Thread.sleep(SILENCE_MILLIS);
                MeasurementReport report = ProtocolJson.read(observer.control(Op.MEASURE_END), MeasurementReport.class);
                assertThat(report.process()).isEqualTo("server");
                assertThatThrownBy(() -> idle.control(Op.INFO)).as("closed after its idle timeout").isInstanceOf(IOException.class);
                // Once the window is ended, the observer is an idle connection like any other.
                Thread.sleep(SILENCE_MILLIS);
                assertThatThrownBy(() -> observer.control(Op.INFO)).as("closed once its window ended").isInstanceOf(IOException.class);
            }
        }
    }

    @Test
    void theProxysOwnWindowIsNotClosedAsIdle() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy").withIdleTimeout(IDLE));
             XferConnection observer = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            observer.proxySelf(Op.MEASURE_BEGIN);
            Thread.sleep(SILENCE_MILLIS);
            MeasurementReport report = ProtocolJson.read(observer.proxySelf(Op.MEASURE_END), MeasurementReport.class);
            assertThat(report.process()).isEqualTo("proxy");
        }
    }
}
