package io.xferbench.core.method;

import java.util.Arrays;

/**
 * Test-only switch that makes a method deliberately worse, so the performance gate's end-to-end test can
 * prove it catches a real regression: {@code -Dxferbench.testing.degrade=transfer-to}. Never set in
 * production runs; results print nothing about it because nothing but that test sets it.
 */
public final class Degradation {
    public static final String PROPERTY = "xferbench.testing.degrade";

    private Degradation() {
    }

    public static boolean requested(String methodId) {
        String value = System.getProperty(PROPERTY, "");
        return Arrays.asList(value.split(",")).contains(methodId);
    }
}
