package io.xferbench.server.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.IoModelTest;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Windows that count syscalls each run a perf process, so a client cannot make the server start one per connection:
 * past {@link Measurements#MAX_COUNTING_WINDOWS} a MEASURE_BEGIN is refused BUSY, the connection goes on, and a
 * window without a count (NO_SYSCALL_COUNT) or one begun after another ended is still served.
 */
@Timeout(120)
class MeasurementWindowCapTest {
    private static final int SIZE = 4096;

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void countingWindowsAreBounded(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        List<XferConnection> holders = new ArrayList<>();
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            for (int i = 0; i < Measurements.MAX_COUNTING_WINDOWS; i++) {
                XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                holders.add(c);
                c.control(Op.MEASURE_BEGIN);
            }
            try (XferConnection late = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThatThrownBy(() -> late.control(Op.MEASURE_BEGIN)).isInstanceOfSatisfying(RemoteException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.BUSY);
                    assertThat(e.getMessage()).contains("already count syscalls");
                });
                assertThat(late.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified())
                        .as("the refused connection goes on").isTrue();
                late.control(Op.MEASURE_BEGIN, Flags.NO_SYSCALL_COUNT);
                assertThat(ProtocolJson.read(late.control(Op.MEASURE_END), MeasurementReport.class).syscalls()).isNull();

                ProtocolJson.read(holders.get(0).control(Op.MEASURE_END), MeasurementReport.class);
                late.control(Op.MEASURE_BEGIN);
                ProtocolJson.read(late.control(Op.MEASURE_END), MeasurementReport.class);
            }
        } finally {
            for (XferConnection c : holders) {
                c.close();
            }
        }
    }
}
