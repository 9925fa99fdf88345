package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.nativeio.KernelTlsProbe;
import io.xferbench.server.config.ServerConfig;
import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What INFO says about the server's machine beyond the methods: here, whether its kernel could do TLS itself. */
class ServerInfoTest {
    @Test
    void infoSaysWhetherTheKernelCanDoTls(@TempDir Path dir) {
        ServerDescription info = ServerInfo.describe(ServerConfig.loopback(dir), DataDirectoryVerdicts.probe(dir),
                InetAddress.getLoopbackAddress());
        assertThat(info.environment().path("kernelTls").asText()).isEqualTo(KernelTlsProbe.here().describe())
                .matches("available|unavailable: .+");
    }
}
