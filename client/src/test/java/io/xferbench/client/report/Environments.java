package io.xferbench.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Report environments for tests, written as maps and records: as JSON, the form a {@link Report} holds. */
public final class Environments {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Environments() {
    }

    public static JsonNode of(Object environment) {
        return JSON.valueToTree(environment);
    }
}
