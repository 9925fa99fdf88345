package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.testing.MethodAssumptions;
import org.junit.jupiter.api.Test;

/** The load report's environment names the outside tools a run used, and only those. */
class LoadEnvironmentTest {
    @Test
    void clientLoadNamesNeitherNginxNorWrkEvenWhereTheyAreInstalled() {
        MethodAssumptions.assumeAvailable("nginx or wrk", NginxProcess.binary().isPresent() || WrkRun.binary().isPresent(),
                "neither nginx nor wrk is installed: the old line would not have named them either");
        LoadEnvironment client = LoadEnvironment.describe();
        assertThat(client.nginx()).isNull();
        assertThat(client.wrk()).isNull();
        assertThat(client.machine().jdk()).isNotNull();
    }

    @Test
    void aBenchNamesTheToolsItRuns() {
        MethodAssumptions.assumeAvailable("nginx and wrk", NginxProcess.binary().isPresent() && WrkRun.binary().isPresent(),
                "nginx or wrk is not installed");
        LoadEnvironment both = LoadEnvironment.describe(null, true, true);
        assertThat(both.nginx()).isNotNull();
        assertThat(both.wrk()).isNotNull();
        LoadEnvironment nginx = LoadEnvironment.describe(null, true, false);
        assertThat(nginx.nginx()).isNotNull();
        assertThat(nginx.wrk()).isNull();
    }

    @Test
    void toolsThatTookNoPartAreNotWrittenToTheJson() {
        JsonNode json = new ObjectMapper().valueToTree(LoadEnvironment.describe());
        assertThat(json.has("nginx")).as("nginx in " + json).isFalse();
        assertThat(json.has("wrk")).as("wrk in " + json).isFalse();
        assertThat(json.has("jdk")).as("the machine's fields, unwrapped, in " + json).isTrue();
    }
}
