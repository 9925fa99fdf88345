package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bench's temporary directories are named after their owner's pid and start time: a later bench removes a dead
 * one's even when a live process has its pid now, and never a live one's. Names from before start times (a random
 * suffix and an owner file) are judged by their pid, as they were.
 */
class OwnedTempDirsTest {
    private static final String PREFIX = "xferbench-owned-test-";

    @Test
    void aDeadBenchsDirectoryIsRemovedThoughItsPidIsReusedAndALiveOnesIsKept(@TempDir Path parent) throws Exception {
        Path live = OwnedTempDirs.create(parent, PREFIX);
        try {
            assertThat(live.getFileName().toString()).as("named after its owner")
                    .startsWith(PREFIX + ProcessOwner.current() + "-");
            long pid = ProcessHandle.current().pid();
            long start = Long.parseLong(ProcessOwner.current().substring(ProcessOwner.current().indexOf('.') + 1));
            // Left by a bench that had this JVM's pid before it: another start time.
            Path reused = Files.createDirectory(parent.resolve(PREFIX + pid + "." + (start - 5000) + "-123"));
            Files.writeString(reused.resolve("nginx.conf"), "left behind");
            Process dead = new ProcessBuilder("true").start();
            dead.waitFor();
            Path oldStyleDead = Files.createDirectory(parent.resolve(PREFIX + "4711"));
            Files.writeString(oldStyleDead.resolve(OwnedTempDirs.OWNER_FILE), Long.toString(dead.pid()));
            Path oldStyleLive = Files.createDirectory(parent.resolve(PREFIX + "4712"));
            Files.writeString(oldStyleLive.resolve(OwnedTempDirs.OWNER_FILE), Long.toString(pid));

            OwnedTempDirs.removeStale(parent, PREFIX);

            assertThat(reused).as("a dead bench's, its pid reused").doesNotExist();
            assertThat(oldStyleDead).as("an old-style directory of a dead pid").doesNotExist();
            assertThat(live).as("this bench's").isDirectory();
            assertThat(oldStyleLive).as("an old-style directory of a live pid").isDirectory();
        } finally {
            OwnedTempDirs.delete(live);
        }
    }
}
