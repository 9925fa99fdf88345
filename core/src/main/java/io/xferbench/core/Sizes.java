package io.xferbench.core;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints byte sizes the way users write them: {@code 0}, {@code 4095}, {@code 64KiB}, {@code 1MiB+1}, {@code 4GiB}. */
public final class Sizes {
    public static final long KiB = 1024L;
    public static final long MiB = 1024L * KiB;
    public static final long GiB = 1024L * MiB;

    private static final Pattern TERM = Pattern.compile("(\\d+)\\s*([KMGT]i?B?|B)?", Pattern.CASE_INSENSITIVE);

    private Sizes() {
    }

    /** Parses a sum of terms such as {@code 1MiB+1}; K/M/G/T are binary (KiB, MiB...), as in fio. */
    public static long parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty size");
        }
        long total = 0;
        for (String part : text.trim().split("\\+")) {
            Matcher m = TERM.matcher(part.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a size: '" + text + "' (use e.g. 4096, 64KiB, 1MiB+1, 4GiB)");
            }
            long value = Long.parseLong(m.group(1));
            long unit = unit(m.group(2));
            total = Math.addExact(total, Math.multiplyExact(value, unit));
        }
        return total;
    }

    private static long unit(String suffix) {
        if (suffix == null || suffix.equalsIgnoreCase("B")) {
            return 1;
        }
        return switch (Character.toUpperCase(suffix.charAt(0))) {
            case 'K' -> KiB;
            case 'M' -> MiB;
            case 'G' -> GiB;
            case 'T' -> 1024L * GiB;
            default -> throw new IllegalArgumentException("unknown unit " + suffix);
        };
    }

    /** Shortest exact binary form: {@code 1MiB+1}, {@code 64KiB}, {@code 4095}. */
    public static String format(long bytes) {
        long[] units = {GiB, MiB, KiB};
        String[] names = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long whole = bytes / units[i];
            long rest = bytes % units[i];
            if (whole > 0 && (rest == 0 || rest < KiB)) {
                return rest == 0 ? whole + names[i] : whole + names[i] + "+" + rest;
            }
        }
        return Long.toString(bytes);
    }

    public static double mib(long bytes) {
        return bytes / (double) MiB;
    }

    public static String human(double bytes) {
        if (bytes >= GiB) {
            return String.format(Locale.ROOT, "%.2f GiB", bytes / GiB);
        }
        if (bytes >= MiB) {
            return String.format(Locale.ROOT, "%.2f MiB", bytes / MiB);
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }
}
