package io.xferbench.jmh;

import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * The benchmarks jar's main: JMH's own {@code Main}, after turning the {@link RunOverrides} {@code -D} properties into
 * the JMH options they stand for. Arguments JMH cannot parse are a usage error here, one line and exit 2: JMH's
 * {@code Main} says so in three lines and exits 1, as it does for a failed run.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        String[] effective;
        try {
            effective = RunOverrides.fromSystemProperties().applyTo(args);
            new CommandLineOptions(effective);
        } catch (IllegalArgumentException e) {
            usageError(e.getMessage());
            return;
        } catch (CommandLineOptionException e) {
            usageError(e.getMessage() + " (see -h)");
            return;
        }
        org.openjdk.jmh.Main.main(effective);
    }

    private static void usageError(String message) {
        System.err.println("jmh: " + message.strip().replaceAll("\\s*\\R\\s*", " "));
        System.exit(2);
    }
}
