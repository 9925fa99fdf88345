package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import io.xferbench.nativeio.ProcessOwner;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temp file of a body a SIGKILLed upload client was generating (found: a client killed 1 s into generating a 2 GiB
 * body left a 326 MB {@code .tmp-<pid>.<start>-xferbench-2147483648.dat-…} in its --data-dir, and the next client
 * kept it) is removed by the next upload client; a live client's is kept. The old client swept nothing.
 */
@Timeout(120)
class KilledClientBodiesTest {

    @Test
    void theNextUploadClientRemovesADeadClientsTempFileAndKeepsALiveOnes(@TempDir Path serverData, @TempDir Path bodies,
            @TempDir Path out) throws Exception {
        String owner = ProcessOwner.current();
        long pid = ProcessHandle.current().pid();
        long start = Long.parseLong(owner.substring(owner.indexOf('.') + 1));
        // A client that had this JVM's pid before it (another start time) was killed while it generated a body.
        Path dead = bodies.resolve(".tmp-" + pid + "." + (start - 5000) + "-xferbench-2147483648.dat-0123456789abcdef");
        Files.write(dead, new byte[8192]);
        Path live = bodies.resolve(".tmp-" + owner + "-xferbench-4096.dat-fedcba9876543210");
        Files.write(live, new byte[4096]);
        try (XferServer server = XferServer.start(ServerConfig.loopback(serverData))) {
            int status = Cli.run(new ClientMain(), "upload", "--host", "127.0.0.1", "--port", Integer.toString(server.port()),
                    "--data-dir", bodies.toString(), "--size", "4KiB", "--repeat", "1", "--method", "stream",
                    "--format", "json", "--out", out.resolve("r.json").toString());
            assertThat(status).as("upload exit status").isZero();
        }
        assertThat(dead).as("a killed client's temp file").doesNotExist();
        assertThat(live).as("a live client's temp file").exists();
    }
}
