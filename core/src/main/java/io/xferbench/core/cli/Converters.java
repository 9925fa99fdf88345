package io.xferbench.core.cli;

import io.xferbench.core.Sizes;
import io.xferbench.core.protocol.Wire;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Typed option values, checked while the command line is parsed: a bad one is a usage error before any work. They
 * throw {@link TypeConversionException}, whose message picocli prints as is ("Invalid value for option '--buffer':
 * ...").
 */
public final class Converters {
    private Converters() {
    }

    private static long size(String value) {
        try {
            return Sizes.parse(value.trim());
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    private static int integer(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a whole number: '" + value + "'");
        }
    }

    private static long wholeLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a whole number: '" + value + "'");
        }
    }

    /**
     * Plain decimal digits only: Double.parseDouble also takes Java's literal forms, so '1d' (a day, one meant) was
     * read as 1 second, and '0x1p3' (a hex float) as 8.
     */
    private static double decimal(String value, String what) {
        if (!PLAIN_DECIMAL.matcher(value).matches()) {
            throw new TypeConversionException("not a " + what + ": '" + value + "'");
        }
        return Double.parseDouble(value);
    }

    private static final Pattern PLAIN_DECIMAL = Pattern.compile("-?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");

    /**
     * The longest duration a command takes: every wait is computed in nanoseconds from now, which a longer one
     * overflows ('internal error: ArithmeticException'); no run or timeout needs more.
     */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    /** A byte count: {@code 4096}, {@code 64KiB}, {@code 1MiB+1}, {@code 4GiB}; not negative. */
    public static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = size(value);
            if (v < 0) {
                throw new TypeConversionException("size must not be negative: " + value);
            }
            return v;
        }
    }

    /** A byte count of at least 1: the size of a file that is read or compared. */
    public static final class PositiveSize implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = new Size().convert(value);
            if (v == 0) {
                throw new TypeConversionException("size must be at least 1 byte: " + value);
            }
            return v;
        }
    }

    /** A transfer buffer: 1 byte to the protocol's limit (64 MiB). */
    public static final class BufferSize implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long v = size(value);
            if (v < 1 || v > Wire.MAX_BUFFER_SIZE) {
                throw new TypeConversionException("buffer must be 1.." + Sizes.format(Wire.MAX_BUFFER_SIZE) + ", not " + value);
            }
            return (int) v;
        }
    }

    /** A buffer size where 0 means "the default". */
    public static final class BufferSizeOrDefault implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return size(value) == 0 ? 0 : new BufferSize().convert(value);
        }
    }

    public static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int v = integer(value);
            if (v < 1) {
                throw new TypeConversionException("must be at least 1, not " + value);
            }
            return v;
        }
    }

    /** Entries of an io_uring ring: a power of two Netty keeps as is (at least 16) and the kernel takes (at most 32,768). */
    public static final class RingEntries implements ITypeConverter<Integer> {
        public static final int MIN = 16;
        public static final int MAX = 32_768;

        @Override
        public Integer convert(String value) {
            int v = integer(value);
            if (v < MIN || v > MAX || Integer.bitCount(v) != 1) {
                throw new TypeConversionException("must be a power of two from " + MIN + " to " + MAX + ", not " + value);
            }
            return v;
        }
    }

    public static final class NonNegativeInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int v = integer(value);
            if (v < 0) {
                throw new TypeConversionException("must not be negative: " + value);
            }
            return v;
        }
    }

    public static final class NonNegativeLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = wholeLong(value);
            if (v < 0) {
                throw new TypeConversionException("must not be negative: " + value);
            }
            return v;
        }
    }

    /** A TCP port, 0 to 65535 (0: any free one). */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int v = integer(value);
            if (v < 0 || v > 65_535) {
                throw new TypeConversionException("port must be 0..65535, not " + value);
            }
            return v;
        }
    }

    /** A {@link Time} greater than zero (a timeout: zero would fail every wait). */
    public static final class PositiveTime implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration d = new Time().convert(value);
            if (!d.isPositive()) {
                throw new TypeConversionException("duration must be positive: " + value);
            }
            return d;
        }
    }

    /**
     * {@code 250ms}, {@code 10s}, {@code 2m}, or a plain number of seconds (decimal digits, a fraction allowed); not
     * negative, at most {@link #MAX_DURATION}.
     */
    public static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            Duration d;
            String what = "duration (e.g. 250ms, 10s, 2m)";
            if (v.endsWith("ms")) {
                d = Duration.ofMillis(Math.round(decimal(v.substring(0, v.length() - 2), what)));
            } else if (v.endsWith("s")) {
                d = Duration.ofMillis(Math.round(decimal(v.substring(0, v.length() - 1), what) * 1000));
            } else if (v.endsWith("m")) {
                d = Duration.ofMillis(Math.round(decimal(v.substring(0, v.length() - 1), what) * 60_000));
            } else {
                d = Duration.ofMillis(Math.round(decimal(v, what) * 1000));
            }
            if (d.isNegative()) {
                throw new TypeConversionException("duration must not be negative: " + value);
            }
            if (d.compareTo(MAX_DURATION) > 0) {
                throw new TypeConversionException("duration must be at most " + MAX_DURATION.toDays() + " days: " + value);
            }
            return d;
        }
    }

    /**
     * A file a report is written to: a name in an existing directory, not a directory. Checked before the run, so that
     * a bad one does not lose the run's results at its end.
     */
    public static final class OutputFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return writableFile(value);
        }
    }

    /** The base of chart files (BASE.png, BASE-cpu.svg, ...): as {@link OutputFile}, and a name left without .png/.svg. */
    public static final class ChartBase implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path base = writableFile(value);
            if (base.getFileName().toString().replaceFirst("\\.(png|svg)$", "").isEmpty()) {
                // The charts would be hidden files: .png, -cpu.png, ...
                throw new TypeConversionException("'" + value + "' has no name before its extension: want e.g. charts/run");
            }
            return base;
        }
    }

    private static Path writableFile(String value) {
        if (value.isEmpty()) {
            throw new TypeConversionException("want a file name, not ''");
        }
        if (value.endsWith("/")) {
            // Path.of drops the slash, and the files would be written beside the directory.
            throw new TypeConversionException("'" + value + "' names a directory: want a file name");
        }
        Path path;
        try {
            path = Path.of(value);
        } catch (InvalidPathException e) {
            throw new TypeConversionException("not a file name: " + e.getMessage());
        }
        if (Files.isDirectory(path)) {
            throw new TypeConversionException("'" + value + "' is a directory: want a file name");
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new TypeConversionException("'" + value + "': there is no directory " + parent);
        }
        // access(2): permissions for a user, and for root too an immutable directory or a read-only mount; the file
        // itself likewise when it is there. Found now, not when the run is over and its output is lost.
        if (!Files.isWritable(parent)) {
            throw new TypeConversionException("'" + value + "': cannot write in " + parent);
        }
        if (Files.exists(path) && !Files.isWritable(path)) {
            throw new TypeConversionException("'" + value + "': cannot write " + path);
        }
        return path;
    }
}
