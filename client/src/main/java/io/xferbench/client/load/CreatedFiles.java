package io.xferbench.client.load;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names a load run may have left on the server: a name is added when its upload is sent (it may land even when
 * the answer is lost) and removed once a DELETE answered OK or NOT_FOUND. What is left is removed after the run.
 */
final class CreatedFiles {
    /** Every file a load run creates starts with this, so {@code client load clean} can find a killed run's files. */
    static final String PREFIX = "xferbench-load-";

    private final Set<String> names = ConcurrentHashMap.newKeySet();

    void sent(String name) {
        names.add(name);
    }

    void gone(String name) {
        names.remove(name);
    }

    List<String> remaining() {
        return List.copyOf(names);
    }
}
