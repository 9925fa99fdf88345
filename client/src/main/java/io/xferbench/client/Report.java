package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.NetworkPath;
import java.util.List;
import java.util.Map;

/** The whole output of a run: how it was obtained, then one result per method and size. */
record Report(Map<String, Object> environment, List<MethodResult> results) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The network path the run took ({@code environment.network}), typed whether this report was just measured or
     * read back from JSON; null for reports older than the field.
     */
    NetworkPath network() {
        Object network = environment.get("network");
        return network == null ? null : JSON.convertValue(network, NetworkPath.class);
    }

    boolean anyFailed() {
        return results.stream().anyMatch(r -> r.error() != null);
    }
}
