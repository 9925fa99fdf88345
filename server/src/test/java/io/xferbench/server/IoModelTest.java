package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every I/O model serves every download and upload method verified, on connections that go on serving afterwards;
 * what differs is the platform threads 200 held connections cost.
 */
@Timeout(120)
class IoModelTest {
    private static final int CLIENTS = 200;

    @TempDir
    Path dataDir;

    private static int platformThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:4"})
    void everyMethodVerifiesOnManyHeldConnections(String model) throws Exception {
        List<String> methods = DownloadMethods.all().stream().filter(m -> m.availability().isAvailable()).map(SenderMethod::id).toList();
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(CLIENTS + 8))) {
            server.data().generated(100_000);
            int before = platformThreads();
            List<XferConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                    c.control(Op.INFO);   // served: it has its thread, now idle waiting for the next request
                    held.add(c);
                }
                int added = platformThreads() - before;
                if (model.equals("platform")) {
                    assertThat(added).as("a platform thread per held connection").isGreaterThanOrEqualTo(CLIENTS);
                } else {
                    assertThat(added).as("idle virtual threads hold no platform thread").isLessThan(CLIENTS / 4);
                }
                // Uploads with every receiver, each on a connection that then serves a download.
                TestFile body = new io.xferbench.core.data.DataDirectory(dataDir.resolve("bodies")).generated(100_001);
                List<String> receivers = UploadMethods.all().stream().filter(m -> m.availability().isAvailable())
                        .map(ReceiverMethod::id).toList();
                for (int i = 0; i < receivers.size(); i++) {
                    String receiver = receivers.get(i);
                    assertThat(held.get(i).upload(Request.upload(receiver, "up-" + receiver + ".bin", 0, 0, Flags.VERIFY_CRC32C, 0), body)
                            .verified()).as(model + " upload " + receiver).isTrue();
                }
                for (int i = 0; i < held.size(); i++) {
                    String method = methods.get(i % methods.size());
                    assertThat(held.get(i).download(Request.download(method, 100_000, Flags.VERIFY_CRC32C, 0)).verified())
                            .as(model + " " + method).isTrue();
                }
                if (model.startsWith("virtual+pool")) {
                    // Every transfer ran on the pool: its 4 threads, nothing per connection.
                    assertThat(platformThreads() - before).as("threads after every method ran").isLessThanOrEqualTo(4 + 32);
                }
            } finally {
                for (XferConnection c : held) {
                    c.close();
                }
            }
        }
    }

    @Test
    void anUnknownModelIsRefusedAtStart(@TempDir Path dir) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> XferServer.start(ServerConfig.loopback(dir).withIoModel("fibers")))
                .hasMessageContaining("unknown --io-model fibers");
    }
}
