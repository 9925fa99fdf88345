package io.xferbench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.util.Optional;

/**
 * Forks and iterations for a run, from {@code -D} system properties, over the defaults of {@link AbstractBenchmark}
 * (or a benchmark's own annotations). An option given to JMH on its command line wins over the property, as the more
 * specific of the two. Null: not overridden.
 */
public record RunOverrides(Integer forks, Integer warmupIterations, Integer iterations) {
    public static final String FORKS = "xferbench.jmh.forks";
    public static final String WARMUP_ITERATIONS = "xferbench.jmh.warmupIterations";
    public static final String ITERATIONS = "xferbench.jmh.iterations";

    public static RunOverrides fromSystemProperties() {
        return from(System.getProperties());
    }

    static RunOverrides from(Properties p) {
        return new RunOverrides(count(p, FORKS, 0), count(p, WARMUP_ITERATIONS, 0), count(p, ITERATIONS, 1));
    }

    private static Integer count(Properties p, String name, int min) {
        String v = p.getProperty(name);
        if (v == null) {
            return null;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + name + " must be an integer >= " + min + ", not '" + v + "'");
    }

    /**
     * JMH's arguments with {@code -f}, {@code -wi} and {@code -i} added for each override the arguments do not set
     * themselves. Arguments JMH cannot parse are returned as they are, for JMH to report.
     */
    public String[] applyTo(String[] args) {
        CommandLineOptions given;
        try {
            given = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            return args;
        }
        List<String> out = new ArrayList<>(List.of(args));
        add(out, "-f", forks, given.getForkCount());
        add(out, "-wi", warmupIterations, given.getWarmupIterations());
        add(out, "-i", iterations, given.getMeasurementIterations());
        return out.toArray(String[]::new);
    }

    private static void add(List<String> args, String option, Integer value, Optional<Integer> given) {
        if (value != null && !given.hasValue()) {
            args.add(option);
            args.add(Integer.toString(value));
        }
    }
}
