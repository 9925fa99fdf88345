package io.xferbench.core.registry;

import io.xferbench.core.method.TransferMethod;
import java.util.ArrayList;
import java.util.List;

/**
 * Replaces a registered method by another class's for one run, without editing the registry:
 * {@code -Dxferbench.method.override=ID=fully.qualified.Class[,ID=Class...]}, where the class has a
 * {@code public static final} field {@code METHOD} of the registry's type with the same id. Try a variant of a method
 * in the server, the client and the JMH forks alike; the gate's end-to-end test uses it to slip in a degraded
 * transfer-to and prove the gate catches it.
 */
final class MethodOverrides {
    static final String PROPERTY = "xferbench.method.override";

    private MethodOverrides() {
    }

    static <M extends TransferMethod> List<M> apply(List<M> registered, Class<M> type) {
        String spec = System.getProperty(PROPERTY, "").strip();
        if (spec.isEmpty()) {
            return registered;
        }
        List<M> out = new ArrayList<>(registered);
        for (String entry : spec.split(",")) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(PROPERTY + ": '" + entry + "' is not ID=CLASS");
            }
            String id = entry.substring(0, eq).strip();
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).id().equals(id)) {
                    out.set(i, load(entry.substring(eq + 1).strip(), id, type));
                }
            }
        }
        return List.copyOf(out);
    }

    private static <M extends TransferMethod> M load(String className, String id, Class<M> type) {
        try {
            Object method = Class.forName(className).getField("METHOD").get(null);
            if (!type.isInstance(method) || !type.cast(method).id().equals(id)) {
                throw new IllegalArgumentException(PROPERTY + ": " + className + ".METHOD is not a " + type.getSimpleName()
                        + " with id " + id);
            }
            return type.cast(method);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(PROPERTY + ": cannot load " + className + ".METHOD: " + e, e);
        }
    }
}
