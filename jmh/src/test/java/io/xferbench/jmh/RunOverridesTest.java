package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RunOverridesTest {

    private static RunOverrides of(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return RunOverrides.from(p);
    }

    @Test
    void propertiesBecomeJmhOptions() {
        RunOverrides o = of(RunOverrides.FORKS, "1", RunOverrides.WARMUP_ITERATIONS, "0", RunOverrides.ITERATIONS, "2");
        assertThat(List.of(o.applyTo(new String[] {"FileToSocket", "-p", "size=65536"})))
                .containsExactly("FileToSocket", "-p", "size=65536", "-f", "1", "-wi", "0", "-i", "2");
    }

    @Test
    void theCommandLineWinsOverAProperty() {
        RunOverrides o = of(RunOverrides.FORKS, "1", RunOverrides.ITERATIONS, "2");
        assertThat(List.of(o.applyTo(new String[] {"-f", "3", "Control"}))).containsExactly("-f", "3", "Control", "-i", "2");
    }

    @Test
    void withoutPropertiesTheArgumentsAreUntouched() {
        assertThat(List.of(of().applyTo(new String[] {"-l"}))).containsExactly("-l");
        assertThat(List.of(of(RunOverrides.FORKS, "1").applyTo(new String[] {"-f", "x"}))).as("JMH reports its own errors")
                .containsExactly("-f", "x");
    }

    @Test
    void aBadValueIsAUsageError() {
        assertThatThrownBy(() -> of(RunOverrides.ITERATIONS, "0")).hasMessage("-Dxferbench.jmh.iterations must be an integer >= 1, not '0'");
        assertThatThrownBy(() -> of(RunOverrides.FORKS, "two")).hasMessageContaining("xferbench.jmh.forks");
    }
}
