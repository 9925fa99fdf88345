package io.xferbench.client.load;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names a load run may have left on the server: a name is added when its upload is sent (it may land even when
 * the answer is lost) and removed once a DELETE answered OK or NOT_FOUND. What is left is removed after the run.
 * Apart from that, the names whose last request was a verified upload: those files must be there, with the run's
 * content, when the run ends (an HTTP run reads them back).
 */
final class CreatedFiles {
    /** Every file a load run creates starts with this, so {@code client load clean} can find a killed run's files. */
    static final String PREFIX = "xferbench-load-";

    private final Set<String> names = ConcurrentHashMap.newKeySet();
    private final Set<String> landed = ConcurrentHashMap.newKeySet();

    void sent(String name) {
        names.add(name);
    }

    /** An upload's answer: verified, the file is the run's; failed, what is there is unknown (still cleaned up). */
    void uploaded(String name, boolean verified) {
        if (verified) {
            landed.add(name);
        } else {
            landed.remove(name);
        }
    }

    void gone(String name) {
        landed.remove(name);
        names.remove(name);
    }

    List<String> remaining() {
        return List.copyOf(names);
    }

    /** Names whose last answer was a verified upload. */
    List<String> landed() {
        return List.copyOf(landed);
    }
}
