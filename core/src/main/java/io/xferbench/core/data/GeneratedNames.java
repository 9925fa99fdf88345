package io.xferbench.core.data;

import java.nio.file.AccessDeniedException;
import java.util.regex.Pattern;

/**
 * The names of generated test files, {@code xferbench-<size>.dat}, and the rule that makes them the server's in the
 * directory itself: an upload to one was served as the generated file (its record matched what was uploaded) and never
 * regenerated, so every later download of that size failed verification. No upload takes one and no DELETE removes
 * one ({@link ConfinedNames#resolveNew}, {@link Deletions}). Apart from {@link GeneratedFiles} because name checks
 * need it long before any file is generated, and without a data directory at all.
 */
final class GeneratedNames {
    private static final String PREFIX = "xferbench-";
    private static final String SUFFIX = ".dat";
    private static final Pattern GENERATED_NAME = Pattern.compile("xferbench-[0-9]+\\.dat");

    private GeneratedNames() {
    }

    /** The name of the generated file of {@code size} bytes. */
    static String of(long size) {
        return PREFIX + size + SUFFIX;
    }

    /** Whether {@code entry}, a name in the directory itself, is a generated file's ({@link #of} of a size). */
    static boolean isGenerated(String entry) {
        if (!GENERATED_NAME.matcher(entry).matches()) {
            return false;
        }
        try {
            long size = Long.parseLong(entry.substring(PREFIX.length(), entry.length() - SUFFIX.length()));
            return of(size).equals(entry);
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }

    /** Refuses {@code entry}, the last component of the client's {@code name}, when it is a generated file's name in the directory itself. */
    static void refuse(String name, String entry) throws AccessDeniedException {
        if (isGenerated(entry)) {
            throw new AccessDeniedException(name, null, "the name of a generated test file, reserved for the server");
        }
    }
}
