package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's {@code serverThreadsStarted} counts from the run's start, warm-up included: kept-alive connections get their
 * threads while the warm-up opens them, so a window-only count would show a thread-per-connection server starting none.
 */
@Timeout(120)
class ServerThreadsStartedTest {
    private static final int FILE = 50 * 1024;
    private static final int CONNECTIONS = 60;

    @TempDir
    Path dataDir;

    private long threadsStarted(String model) throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(CONNECTIONS + 8))) {
            server.data().generated(FILE);
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            LoadPlan plan = new LoadPlan(address, CONNECTIONS, 2, 0, Duration.ofMillis(500), Duration.ofSeconds(1), 0,
                    Duration.ofSeconds(30));
            ServerWatch watch = new ServerWatch(null, address, "");
            LoadResult r = LoadEngine.run(plan, new NativeDownloadExchange("transfer-to", FILE, 0, "",
                    new ContentGenerator(DataDirectory.SEED).crc32c(FILE)), watch);
            assertThat(r.errors()).isEmpty();
            assertThat(watch.report()).as("the server's report").isNotNull();
            return watch.report().threadsStarted();
        }
    }

    @Test
    void aThreadPerConnectionServerStartsOnePerConnectionOfTheRun() throws Exception {
        assertThat(threadsStarted("platform")).isGreaterThanOrEqualTo(CONNECTIONS);
    }

    @Test
    void aPooledServerStartsFewWhateverTheConnections() throws Exception {
        assertThat(threadsStarted("virtual+pool:4")).isLessThanOrEqualTo(4 + 32);
    }
}
