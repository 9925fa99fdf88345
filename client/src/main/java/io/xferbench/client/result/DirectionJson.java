package io.xferbench.client.result;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdScalarSerializer;
import io.xferbench.core.method.Direction;
import java.io.IOException;

/**
 * A direction as reports write it: the client's command name ({@code download}, {@code upload}, {@code proxy}), so a
 * relay row reads "proxy" as it always has.
 */
public final class DirectionJson {
    private DirectionJson() {
    }

    public static String name(Direction direction) {
        return switch (direction) {
            case DOWNLOAD -> "download";
            case UPLOAD -> "upload";
            case RELAY -> "proxy";
        };
    }

    static Direction parse(String name) {
        for (Direction d : Direction.values()) {
            if (name(d).equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("direction is download, upload or proxy, not '" + name + "'");
    }

    static final class Writer extends StdScalarSerializer<Direction> {
        Writer() {
            super(Direction.class);
        }

        @Override
        public void serialize(Direction value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(name(value));
        }
    }

    static final class Reader extends StdScalarDeserializer<Direction> {
        Reader() {
            super(Direction.class);
        }

        @Override
        public Direction deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            try {
                return parse(p.getValueAsString());
            } catch (IllegalArgumentException e) {
                return (Direction) ctxt.handleWeirdStringValue(Direction.class, p.getValueAsString(), e.getMessage());
            }
        }
    }
}
