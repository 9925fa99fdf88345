package io.xferbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The methods of one direction an INFO answer lists, and why the unavailable ones cannot run there. */
record MethodCatalog(String direction, List<String> known, Map<String, String> unavailable) {

    static MethodCatalog of(JsonNode info, String direction) {
        List<String> known = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        JsonNode methods = info.get("methods");
        if (methods != null) {
            for (JsonNode m : methods) {
                if (!direction.equals(m.path("direction").asText())) {
                    continue;
                }
                String id = m.get("id").asText();
                known.add(id);
                if (!m.path("available").asBoolean(true)) {
                    unavailable.put(id, m.path("unavailableReason").asText("unavailable"));
                }
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
