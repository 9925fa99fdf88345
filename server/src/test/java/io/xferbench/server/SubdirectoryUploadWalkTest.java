package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.net.UploadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upload into a subdirectory reaches the target's directory from the held data directory once (an {@code O_PATH}
 * open and a close per level) and creates, renames and records from that descriptor; it walked the levels again for
 * the rename. Counted by perf in a server process of its own ({@code platform} model), as the difference between
 * uploads one level deeper and the same uploads one level up, so everything else an upload costs cancels out.
 */
@Timeout(180)
class SubdirectoryUploadWalkTest {
    private static final int UPLOADS = 20;

    @TempDir
    Path tmp;

    @Test
    void aLevelMoreCostsOneOpenAndOneClosePerUpload() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(dataDir.resolve("a/b"));
        TestFile body;
        try (DataDirectory bodies = new DataDirectory(tmp.resolve("bodies"))) {
            body = bodies.generated(4096);
        }
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", "platform");
             XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
            // Starts the connection's thread, makes .uploads and loads the classes of the path before perf attaches.
            for (int i = 0; i < 3; i++) {
                upload(c, "a/w", body);
                upload(c, "a/b/w", body);
            }
            SyscallCounts oneLevel = count(server, c, "a/f", body);
            SyscallCounts twoLevels = count(server, c, "a/b/f", body);
            // Twice the walk was 2 openat and 2 close more per level and upload: 40 each here.
            assertThat(twoLevels.of("openat") - oneLevel.of("openat")).as("openat per level").isBetween(UPLOADS - 2L, UPLOADS + 2L);
            assertThat(twoLevels.of("close") - oneLevel.of("close")).as("close per level").isBetween(UPLOADS - 2L, UPLOADS + 2L);
        }
    }

    private static SyscallCounts count(ServerProcess server, XferConnection c, String name, TestFile body) throws Exception {
        try (PerfSyscallCounter perf = PerfSyscallCounter.attach(server.process.pid(), List.of("openat", "close", "rename", "renameat", "renameat2"))) {
            perf.enable();
            for (int i = 0; i < UPLOADS; i++) {
                upload(c, name, body);
            }
            perf.disable();
            SyscallCounts counts = perf.stop();
            assertThat(counts.of("rename") + counts.of("renameat") + counts.of("renameat2")).as("the uploads were counted").isGreaterThanOrEqualTo(UPLOADS);
            return counts;
        }
    }

    private static void upload(XferConnection c, String name, TestFile body) throws Exception {
        UploadResult up = c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body);
        assertThat(up.verified()).as(name + ": " + up.failure()).isTrue();
    }
}
