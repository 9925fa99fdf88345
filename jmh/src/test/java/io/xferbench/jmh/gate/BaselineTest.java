package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {
    @TempDir
    Path tmp;

    @Test
    void aNullEnvironmentReadsAsAnEmptyOne() throws Exception {
        Path file = Files.writeString(tmp.resolve("baseline.json"), "{\"environment\": null, \"results\": []}");
        assertThat(Baseline.read(file).environment().isObject()).isTrue();
    }
}
