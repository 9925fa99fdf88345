package io.xferbench.client.command;

import io.xferbench.core.protocol.MethodDescription;
import io.xferbench.core.protocol.ServerDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The methods of one direction an INFO answer lists, why the unavailable ones cannot run there, and which run only on
 * other I/O models than the server's ({@code otherModels}: an event loop's own ways of sending, asked of a threaded
 * server), which {@code all} leaves out: they are missing by the server's design, not for want of a capability.
 */
record MethodCatalog(String direction, List<String> known, Map<String, String> unavailable, Map<String, String> otherModels) {

    static MethodCatalog of(ServerDescription info, String direction) {
        List<String> known = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        Map<String, String> otherModels = new LinkedHashMap<>();
        for (MethodDescription m : info.methods(direction)) {
            known.add(m.id());
            if (!m.available()) {
                unavailable.put(m.id(), m.unavailableReason() == null ? "unavailable" : m.unavailableReason());
            }
            if (m.otherModels() != null) {
                otherModels.put(m.id(), m.otherModels());
            }
        }
        return new MethodCatalog(direction, List.copyOf(known), unavailable, otherModels);
    }

    /** What {@code all} in {@code requested} left out, as one line for the user; null when nothing. */
    String leftOutOfAll(List<String> requested) {
        if (!requested.contains("all") || otherModels.isEmpty()) {
            return null;
        }
        return "--method all leaves out " + String.join(", ", otherModels.keySet()) + ": they run only on "
                + String.join("; ", new java.util.LinkedHashSet<>(otherModels.values()))
                + " (name them to see the refusal)";
    }
    /** {@code all} (anywhere in the list) stands for every known method; unknown ids are refused with the known ones. */
    List<String> choose(List<String> requested) {
        List<String> chosen = new ArrayList<>();
        for (String m : requested) {
            if (m.equals("all")) {
                known.stream().filter(k -> !chosen.contains(k) && !otherModels.containsKey(k)).forEach(chosen::add);
            } else if (!known.contains(m)) {
                throw new IllegalArgumentException("unknown " + direction + " method '" + m + "'; the server knows: " + String.join(", ", known));
            } else {
                chosen.add(m);
            }
        }
        return chosen;
    }

    /** Why the far side cannot run {@code id}, or null. */
    String unavailableReason(String id) {
        return unavailable.get(id);
    }
}
