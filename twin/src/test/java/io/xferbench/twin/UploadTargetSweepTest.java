package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upload pairs' target directory a SIGKILLed harness left (found by SIGKILLing {@code scripts/twin --direction
 * upload} mid-run: {@code xferbench-upload-twin-<random>} stayed in the data directory, with its target file) is
 * removed by the next harness; a live harness's is kept. The old code named the directory at random and swept nothing.
 */
class UploadTargetSweepTest {

    @Test
    void theNextHarnessRemovesADeadOnesTargetAndKeepsALiveOnes(@TempDir Path data) throws Exception {
        String owner = ProcessOwner.current();
        long pid = ProcessHandle.current().pid();
        long start = Long.parseLong(owner.substring(owner.indexOf('.') + 1));
        // Left by a harness that had this JVM's pid before it: another start time.
        Path dead = Files.createDirectory(data.resolve(UploadTarget.PREFIX + pid + "." + (start - 5000) + "-123"));
        Files.writeString(dead.resolve("target.bin"), "half an upload");
        Path live = Files.createDirectory(data.resolve(UploadTarget.PREFIX + owner + "-456"));
        try (UploadTarget target = new UploadTarget(data)) {
            assertThat(dead).as("a dead harness's directory").doesNotExist();
            assertThat(live).as("a live harness's directory").isDirectory();
            assertThat(target.file().getParent().getFileName().toString()).as("named after its owner")
                    .startsWith(UploadTarget.PREFIX + owner + "-");
        }
    }
}
