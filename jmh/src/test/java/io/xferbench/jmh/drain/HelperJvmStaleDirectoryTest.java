package io.xferbench.jmh.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a SIGKILLed fork's helper left in /dev/shm goes with the next helper's start; a live fork's stays. */
class HelperJvmStaleDirectoryTest {

    @TempDir
    Path shm;

    @Test
    void removesTheDirectoriesOfDeadOwnersOfTheSameHelperOnly() throws Exception {
        long pid = ProcessHandle.current().pid();
        // This pid with another start time: a fork killed outright, its pid since reused.
        Path dead = Files.createDirectory(shm.resolve(HelperJvm.prefix("drain") + pid + ".1-123"));
        Files.write(dead.resolve("counters"), new byte[64]);
        Files.writeString(dead.resolve("drain.log"), "Runtime.exit(130)");
        Path live = Files.createDirectory(shm.resolve(HelperJvm.prefix("drain") + ProcessOwner.current() + "-456"));
        Path otherHelper = Files.createDirectory(shm.resolve(HelperJvm.prefix("feed") + pid + ".1-789"));

        assertThat(HelperJvm.removeStale(shm, "drain")).containsExactly(dead);

        assertThat(dead).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(otherHelper).isDirectory();
    }
}
