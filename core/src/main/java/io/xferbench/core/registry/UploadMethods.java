package io.xferbench.core.registry;

import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.receive.DirectChannelReceiver;
import io.xferbench.core.method.receive.EpollSpliceReceiver;
import io.xferbench.core.method.receive.IoUringReceiver;
import io.xferbench.core.method.receive.IoUringRecvWriteReceiver;
import io.xferbench.core.method.receive.MmapReceiver;
import io.xferbench.core.method.receive.SpliceReceiver;
import io.xferbench.core.method.receive.StreamReceiver;
import io.xferbench.core.method.receive.TransferFromReceiver;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The registry of upload (socket → file) methods, in the order results are shown. Add a method here (its class plus this line); see docs/architecture.md. */
public final class UploadMethods {
    private static final List<ReceiverMethod> ALL = MethodOverrides.apply(List.of(
            StreamReceiver.METHOD,
            DirectChannelReceiver.METHOD,
            TransferFromReceiver.METHOD,
            MmapReceiver.METHOD,
            EpollSpliceReceiver.METHOD,
            IoUringReceiver.METHOD,
            IoUringRecvWriteReceiver.METHOD,
            SpliceReceiver.METHOD,
            SpliceReceiver.POOLED), ReceiverMethod.class);

    /** By id, for the per-request lookup (no stream per upload). */
    private static final Map<String, ReceiverMethod> BY_ID = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(ReceiverMethod::id, m -> m));

    private UploadMethods() {
    }

    public static List<ReceiverMethod> all() {
        return ALL;
    }

    public static Optional<ReceiverMethod> byId(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(BY_ID.get(id));
    }

    public static List<String> ids() {
        return ALL.stream().map(ReceiverMethod::id).toList();
    }
}
