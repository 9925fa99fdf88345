package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temp file of a benchmark file a killed JMH run was generating ({@code .tmp-<pid>.<start>-xferbench-<size>.dat-…})
 * is removed when the next run opens the data directory; a live JVM's is kept. The old {@link BenchData} swept nothing.
 */
class KilledBenchDataTest {

    @Test
    void openingTheDataDirectoryRemovesADeadRunsTempFileAndKeepsALiveOnes(@TempDir Path data) throws Exception {
        String owner = ProcessOwner.current();
        long pid = ProcessHandle.current().pid();
        long start = Long.parseLong(owner.substring(owner.indexOf('.') + 1));
        Path dead = data.resolve(".tmp-" + pid + "." + (start - 5000) + "-xferbench-268435456.dat-0123456789abcdef");
        Files.write(dead, new byte[8192]);
        Path live = data.resolve(".tmp-" + owner + "-xferbench-8192.dat-fedcba9876543210");
        Files.write(live, new byte[4096]);

        BenchData.open(data).close();

        assertThat(dead).as("a killed run's temp file").doesNotExist();
        assertThat(live).as("a live JVM's temp file").exists();
    }
}
