package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.send.DontCacheSender;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.MethodDescription;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.DontCacheProbe;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INFO says whether dontcache can serve the data directory's files from a probe of its file system at start, not from
 * the kernel's release alone: on 6.18 a tmpfs data directory refuses every dontcache request, and INFO said
 * "available" there.
 */
class DontCacheInfoTest {
    @TempDir
    Path dataDir;

    @Test
    void infoOnATmpfsDataDirectorySaysWhatTheProbeSays() throws Exception {
        Path shm = Path.of("/dev/shm");
        MethodAssumptions.assumeAvailable("a tmpfs data directory", Files.isDirectory(shm) && Files.isWritable(shm),
                "no writable /dev/shm");
        Path onShm = Files.createTempDirectory(shm, "xferbench-dontcache-info");
        try {
            infoSaysWhatTheProbeSays(onShm);
        } finally {
            try (Stream<Path> walk = Files.walk(onShm)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    @Test
    void infoOnTheTestsDataDirectorySaysWhatTheProbeSays() throws Exception {
        infoSaysWhatTheProbeSays(dataDir);
    }

    private static void infoSaysWhatTheProbeSays(Path dir) throws Exception {
        MethodAssumptions.assumeAvailable("dontcache", DontCacheSender.METHOD.availability());
        // The test's own probe, of a file of its own on the same file system.
        Path mine = Files.createFile(dir.resolve("probe-of-the-test"));
        String expected;
        try {
            expected = DontCacheProbe.unsupportedReason(mine);
        } finally {
            Files.delete(mine);
        }
        try (XferServer server = XferServer.start(ServerConfig.loopback(dir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            ServerDescription info = ProtocolJson.read(c.control(Op.INFO), ServerDescription.class);
            MethodDescription dontcache = info.methods("download").stream().filter(m -> m.id().equals("dontcache"))
                    .findFirst().orElseThrow();
            assertThat(dontcache.available()).as("dontcache in INFO; the probe says: %s", expected).isEqualTo(expected == null);
            if (expected != null) {
                assertThat(dontcache.unavailableReason()).isEqualTo("data directory " + dir + ": " + expected);
            }
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("the probe's file is gone").noneMatch(n -> n.contains("dontcache-probe"));
        }
    }
}
