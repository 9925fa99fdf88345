package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The load report's environment names the outside tools a run used, and only those. */
class LoadEnvironmentTest {
    @Test
    void clientLoadNamesNeitherNginxNorWrkEvenWhereTheyAreInstalled() {
        assumeTrue(NginxProcess.binary().isPresent() || WrkRun.binary().isPresent(),
                "neither nginx nor wrk is installed: the old line would not have named them either");
        assertThat(LoadEnvironment.describe()).doesNotContainKeys("nginx", "wrk").containsKey("jdk");
    }

    @Test
    void aBenchNamesTheToolsItRuns() {
        assumeTrue(NginxProcess.binary().isPresent() && WrkRun.binary().isPresent(), "nginx and wrk are installed");
        assertThat(LoadEnvironment.describe(null, true, true)).containsKeys("nginx", "wrk");
        assertThat(LoadEnvironment.describe(null, true, false)).containsKey("nginx").doesNotContainKey("wrk");
    }
}
