package io.xferbench.core.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The JSON payloads of INFO and MEASURE_END, written and read the same way by server, proxy and client. Unknown
 * fields are ignored when reading, so a newer far side can add fields without breaking an older reader.
 */
public final class ProtocolJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ProtocolJson() {
    }

    public static byte[] write(Object record) throws IOException {
        return MAPPER.writeValueAsBytes(record);
    }

    /** Reads a payload; one that does not fit {@code type} is a protocol error, not a crash. */
    public static <T> T read(byte[] json, Class<T> type) throws ProtocolException {
        try {
            return MAPPER.readValue(json, type);
        } catch (IOException e) {
            throw new ProtocolException(Status.BAD_REQUEST, "malformed " + type.getSimpleName() + " payload: " + e.getMessage());
        }
    }
}
