package io.xferbench.client.report;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which of several cooperating client processes a report came from: {@code index} of {@code count} (1-based), written
 * {@code I/N} on the command line and kept in the report's environment, so {@code client merge} can check it has them all.
 */
public record ClientId(int index, int count) {
    public ClientId {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("client id " + index + "/" + count + ": want I/N with 1 <= I <= N");
        }
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }

    /** Parses {@code I/N}. */
    public static final class Converter implements ITypeConverter<ClientId> {
        @Override
        public ClientId convert(String value) {
            String[] parts = value.split("/", -1);
            try {
                if (parts.length == 2) {
                    return new ClientId(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
                }
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("want I/N with 1 <= I <= N (e.g. 1/2), not '" + value + "'");
            }
            throw new TypeConversionException("want I/N (e.g. 1/2), not '" + value + "'");
        }
    }
}
