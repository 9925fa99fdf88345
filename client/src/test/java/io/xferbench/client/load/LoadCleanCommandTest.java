package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.exchange.NativeDeleteExchange;
import io.xferbench.client.load.exchange.NativeUploadExchange;
import io.xferbench.client.load.fileops.CreatedFiles;
import io.xferbench.client.load.fileops.FileOpsWorkload;
import io.xferbench.core.cli.Cli;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code client load clean}: a killed run's uploads go, everything else in the data directory stays. */
@Timeout(60)
class LoadCleanCommandTest {
    @TempDir
    Path dataDir;

    @Test
    void removesTheLoadsUploadsAndNothingElse() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            server.data().generated(4096);
            // Uploads a run never got to delete, as if it had been killed.
            LoadEngine.run(new LoadPlan(new InetSocketAddress("127.0.0.1", server.port()), 3, 1, 30, null, Duration.ZERO, 0,
                    Duration.ofSeconds(10)), new FileOpsWorkload(FileOpsWorkload.Kind.UPLOAD, "killed",
                    new NativeUploadExchange("channel-direct", 4096, ""), new NativeDeleteExchange(""), null, null,
                    new CreatedFiles()));
        }
        Files.writeString(dataDir.resolve("keep-me.txt"), "not the load's");
        assertThat(loadFiles()).hasSize(3);
        int exit = Cli.commandLine(new LoadCommand()).execute("clean", "--data-dir", dataDir.toString());
        assertThat(exit).isZero();
        assertThat(loadFiles()).isEmpty();
        assertThat(dataDir.resolve("keep-me.txt")).exists();
        assertThat(dataDir.resolve(io.xferbench.core.data.DataDirectory.generatedName(4096))).exists();
    }

    /** A run alive on this machine (the pid in its files' names) keeps its files unless --all; a dead run's go. */
    @Test
    void keepsTheFilesOfALiveRunUnlessAll() throws Exception {
        String live = CreatedFiles.PREFIX + ProcessHandle.current().pid() + "-abc-c1-0.dat";
        String dead = CreatedFiles.PREFIX + 4_194_305 + "-abc-c1-0.dat"; // above Linux's PID_MAX_LIMIT: never alive
        Files.writeString(dataDir.resolve(live), "a live run's");
        Files.writeString(dataDir.resolve(dead), "a killed run's");
        assertThat(Cli.commandLine(new LoadCommand()).execute("clean", "--data-dir", dataDir.toString())).isZero();
        assertThat(dataDir.resolve(dead)).doesNotExist();
        assertThat(dataDir.resolve(live)).exists();
        assertThat(Cli.commandLine(new LoadCommand()).execute("clean", "--data-dir", dataDir.toString(), "--all")).isZero();
        assertThat(loadFiles()).isEmpty();
    }

    @Test
    void aMissingDirectoryIsAUsageError() {
        int exit = Cli.commandLine(new LoadCommand()).execute("clean", "--data-dir", dataDir.resolve("nope").toString());
        assertThat(exit).isEqualTo(2);
    }

    private Stream<Path> list() throws Exception {
        return Files.list(dataDir);
    }

    private java.util.List<Path> loadFiles() throws Exception {
        try (Stream<Path> s = list()) {
            return s.filter(p -> p.getFileName().toString().startsWith(CreatedFiles.PREFIX)).toList();
        }
    }
}
