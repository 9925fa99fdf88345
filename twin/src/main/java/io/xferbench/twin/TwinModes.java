package io.xferbench.twin;

import io.xferbench.core.method.Direction;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Method id → the mode of its C twin, per direction in the registry's order, from each method's descriptor
 * (MethodTraits), so no list here can forget one.
 */
final class TwinModes {
    static final Map<String, String> BY_METHOD = of(DownloadMethods.all());
    /** Upload methods with a receiving C twin (xfer_uring_twin's receiving mode). */
    static final Map<String, String> UPLOAD_BY_METHOD = of(UploadMethods.all());

    static Map<String, String> of(Direction direction) {
        return direction == Direction.UPLOAD ? UPLOAD_BY_METHOD : BY_METHOD;
    }

    /** The io_uring modes, which xfer_uring_twin (liburing) runs; xfer_twin runs the others. */
    static boolean isUring(String mode) {
        return mode.startsWith("uring-");
    }

    private static Map<String, String> of(List<? extends TransferMethod> methods) {
        return Collections.unmodifiableMap(methods.stream()
                .filter(m -> m.traits().twinMode() != null)
                .collect(Collectors.toMap(TransferMethod::id, m -> m.traits().twinMode(), (a, b) -> a, LinkedHashMap::new)));
    }

    private TwinModes() {
    }
}
