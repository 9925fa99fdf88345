package io.xferbench.jmh;

/**
 * The benchmarks jar's main: JMH's own {@code Main}, after turning the {@link RunOverrides} {@code -D} properties into
 * the JMH options they stand for.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        String[] effective;
        try {
            effective = RunOverrides.fromSystemProperties().applyTo(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jmh: " + e.getMessage());
            System.exit(2);
            return;
        }
        org.openjdk.jmh.Main.main(effective);
    }
}
