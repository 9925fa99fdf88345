package io.xferbench.server.proxy;

import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.protocol.MethodDescription;
import io.xferbench.core.registry.RelayMethods;
import java.util.ArrayList;
import java.util.List;

/** Every relay as INFO lists it (direction {@code proxy}), the same from a server and from a proxy. */
public final class RelayDescriptions {
    private RelayDescriptions() {
    }

    public static List<MethodDescription> all() {
        List<MethodDescription> methods = new ArrayList<>();
        for (RelayMethod m : RelayMethods.all()) {
            methods.add(MethodDescription.of("proxy", m.id(), m.summary(), m.availability().isAvailable(),
                    m.availability().unavailableReason()));
        }
        return methods;
    }
}
