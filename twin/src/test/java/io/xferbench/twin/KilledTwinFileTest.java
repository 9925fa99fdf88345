package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temp file of a test file a killed harness was generating ({@code .tmp-<pid>.<start>-xferbench-<size>.dat-…}, as
 * a SIGKILLed upload client left one) is removed by the next {@code TwinFile}, the scripts' preparation; a live
 * harness's is kept. The old TwinFile swept nothing.
 */
class KilledTwinFileTest {

    @Test
    void theNextPreparationRemovesADeadHarnesssTempFileAndKeepsALiveOnes(@TempDir Path data) throws Exception {
        String owner = ProcessOwner.current();
        long pid = ProcessHandle.current().pid();
        long start = Long.parseLong(owner.substring(owner.indexOf('.') + 1));
        Path dead = data.resolve(".tmp-" + pid + "." + (start - 5000) + "-xferbench-4294967296.dat-0123456789abcdef");
        Files.write(dead, new byte[8192]);
        Path live = data.resolve(".tmp-" + owner + "-xferbench-8192.dat-fedcba9876543210");
        Files.write(live, new byte[4096]);

        assertThat(Cli.run(new TwinFile(), data.toString(), "4KiB")).as("twin-file exit status").isZero();

        assertThat(dead).as("a killed harness's temp file").doesNotExist();
        assertThat(live).as("a live harness's temp file").exists();
        assertThat(data.resolve("xferbench-4096.dat")).hasSize(4096);
    }
}
