package io.xferbench.client;

import java.util.List;
import java.util.Map;

/** The whole output of a run: how it was obtained, then one result per method and size. */
record Report(Map<String, Object> environment, List<MethodResult> results) {

    boolean anyFailed() {
        return results.stream().anyMatch(r -> r.error() != null);
    }
}
