package io.xferbench.nativeio.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Core's MethodAssumptions for native's own tests, which cannot see core's test-jar (core depends on native): skips a
 * test with the reason a capability is missing here, or fails it under {@code XFERBENCH_REQUIRE_ALL_METHODS=1}.
 */
public final class NativeAssumptions {
    private NativeAssumptions() {
    }

    public static void assumeAvailable(String what, boolean available, String reason) {
        if (available) {
            return;
        }
        String message = what + " skipped: " + reason;
        if ("1".equals(System.getenv("XFERBENCH_REQUIRE_ALL_METHODS"))) {
            Assertions.fail(message + " (XFERBENCH_REQUIRE_ALL_METHODS=1 demands it runs here)");
        }
        Assumptions.abort(message);
    }
}
