package io.xferbench.core.registry;

import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.relay.CopyRelay;
import io.xferbench.core.method.relay.EpollSpliceRelay;
import io.xferbench.core.method.relay.IoUringRelay;
import io.xferbench.core.method.relay.SpliceRelay;
import java.util.List;
import java.util.Optional;

/** The registry of proxy relay (socket → socket) methods, in the order results are shown. Add a method here (its class plus this line); see docs/architecture.md. */
public final class RelayMethods {
    private static final List<RelayMethod> ALL = MethodOverrides.apply(List.of(
            CopyRelay.METHOD,
            EpollSpliceRelay.METHOD,
            IoUringRelay.METHOD,
            SpliceRelay.METHOD,
            SpliceRelay.POOLED), RelayMethod.class);

    private RelayMethods() {
    }

    public static List<RelayMethod> all() {
        return ALL;
    }

    public static Optional<RelayMethod> byId(String id) {
        return ALL.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    public static List<String> ids() {
        return ALL.stream().map(RelayMethod::id).toList();
    }
}
