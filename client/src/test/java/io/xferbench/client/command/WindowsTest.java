package io.xferbench.client.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.run.TransferDriver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --no-syscalls reaches the server: its window starts no perf, so nothing of perf's is in the server's figures. */
class WindowsTest {
    @TempDir
    Path dataDir;

    @Test
    void aWindowWithoutSyscallCountingAsksTheServerNotToCount() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), null)) {
            TransferDriver.Window off = Windows.server(c, false);
            off.begin();
            MeasurementReport notCounted = off.end();
            assertThat(notCounted.syscalls()).isNull();
            assertThat(notCounted.syscallsUnavailable()).isEqualTo("syscall counting not requested");

            TransferDriver.Window on = Windows.server(c, true);
            on.begin();
            assertThat(on.end().syscallsUnavailable()).isNotEqualTo("syscall counting not requested");
        }
    }
}
