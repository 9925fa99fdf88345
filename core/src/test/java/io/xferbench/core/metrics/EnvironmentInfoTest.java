package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's description keeps the fields and order result files have always had (docs/results.md). */
class EnvironmentInfoTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> fields(MachineDescription m) {
        List<String> names = new ArrayList<>();
        JsonNode tree = JSON.valueToTree(m);
        tree.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void withoutADataDirectoryItsFileSystemFieldsAreNotWritten() {
        assertThat(fields(EnvironmentInfo.describe(null))).containsExactly("jdk", "jvm", "kernel", "cpus", "cpuModel", "cpusAllowed",
                "memoryBytes", "host", "tuning", "perfSyscallCounting", "kernelTls");
    }

    @Test
    void aDataDirectoryAddsItsFileSystemBeforeTheTuning(@TempDir Path dir) {
        MachineDescription m = EnvironmentInfo.describe(dir);
        assertThat(fields(m)).containsExactly("jdk", "jvm", "kernel", "cpus", "cpuModel", "cpusAllowed", "memoryBytes", "host",
                "dataDir", "fileSystem", "fileSystemDevice", "fileSystemBlockSize", "tuning", "perfSyscallCounting", "kernelTls");
        assertThat(m.dataDir()).isEqualTo(dir.toString());
        assertThat(m.fileSystemBlockSize()).isPositive();
    }
}
