package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import org.junit.jupiter.api.Test;

/** The load report's environment names the outside tools a run used, and only those. */
class LoadEnvironmentTest {
    @Test
    void clientLoadNamesNeitherNginxNorWrkEvenWhereTheyAreInstalled() {
        MethodAssumptions.assumeAvailable("nginx or wrk", NginxProcess.binary().isPresent() || WrkRun.binary().isPresent(),
                "neither nginx nor wrk is installed: the old line would not have named them either");
        assertThat(LoadEnvironment.describe()).doesNotContainKeys("nginx", "wrk").containsKey("jdk");
    }

    @Test
    void aBenchNamesTheToolsItRuns() {
        MethodAssumptions.assumeAvailable("nginx and wrk", NginxProcess.binary().isPresent() && WrkRun.binary().isPresent(),
                "nginx or wrk is not installed");
        assertThat(LoadEnvironment.describe(null, true, true)).containsKeys("nginx", "wrk");
        assertThat(LoadEnvironment.describe(null, true, false)).containsKey("nginx").doesNotContainKey("wrk");
    }
}
