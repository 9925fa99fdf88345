package io.xferbench.client;

import io.xferbench.core.protocol.MethodDescription;
import io.xferbench.core.protocol.ServerDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The methods of one direction an INFO answer lists, and why the unavailable ones cannot run there. */
record MethodCatalog(String direction, List<String> known, Map<String, String> unavailable) {

    static MethodCatalog of(ServerDescription info, String direction) {
        List<String> known = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        for (MethodDescription m : info.methods(direction)) {
            known.add(m.id());
            if (!m.available()) {
                unavailable.put(m.id(), m.unavailableReason() == null ? "unavailable" : m.unavailableReason());
            }
        }
        return new MethodCatalog(direction, List.copyOf(known), unavailable);
    }
    /** {@code all} (anywhere in the list) stands for every known method; unknown ids are refused with the known ones. */
    List<String> choose(List<String> requested) {
        List<String> chosen = new ArrayList<>();
        for (String m : requested) {
            if (m.equals("all")) {
                known.stream().filter(k -> !chosen.contains(k)).forEach(chosen::add);
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
