package io.xferbench.twin;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.registry.DownloadMethods;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Method id → the mode of its C twin, in the registry's order, from each download method's descriptor (MethodTraits),
 * so no list here can forget one.
 */
final class TwinModes {
    static final Map<String, String> BY_METHOD = Collections.unmodifiableMap(DownloadMethods.all().stream()
            .filter(m -> m.traits().twinMode() != null)
            .collect(Collectors.toMap(SenderMethod::id, m -> m.traits().twinMode(), (a, b) -> a, LinkedHashMap::new)));

    /** The io_uring modes, which xfer_uring_twin (liburing) runs; xfer_twin runs the others. */
    static boolean isUring(String mode) {
        return mode.startsWith("uring-");
    }

    private TwinModes() {
    }
}
