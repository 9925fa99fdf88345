package io.xferbench.client.report;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.xferbench.core.metrics.MachineDescription;
import io.xferbench.core.metrics.NetworkPath;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What download, upload and proxy write as a report's {@code environment} (docs/results.md), in the order reports have
 * always had it. A {@link Report} holds it as JSON ({@link Report#of}), so a fresh report and one read from a file look
 * alike to render, compare and merge.
 *
 * @param clientId cooperating clients only ({@code --client-id}), else not written
 * @param startAt  {@code --start-at} when given, else not written
 * @param client   this machine ({@link io.xferbench.core.metrics.EnvironmentInfo})
 * @param proxy    proxy runs only, else not written
 * @param server   the server's INFO environment (the upstream's in proxy runs), as it sent it
 */
public record RunEnvironment(Provenance provenance, RunSettings settings, @JsonInclude(JsonInclude.Include.NON_NULL) String clientId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String startAt, MachineDescription client, NetworkPath network,
                      @JsonInclude(JsonInclude.Include.NON_NULL) ProxySide proxy, JsonNode server) {
    /**
     * The proxy process: its pid and upstream, then its machine's description.
     *
     * @param machine the proxy's INFO environment as it sent it, written flat after pid and upstream
     */
    public record ProxySide(long pid, String upstream, @JsonIgnore JsonNode machine) {
        @JsonAnyGetter
        private Map<String, JsonNode> machineFields() {
            Map<String, JsonNode> fields = new LinkedHashMap<>();
            machine.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
            return fields;
        }
    }
}
