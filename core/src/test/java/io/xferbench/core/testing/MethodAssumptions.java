package io.xferbench.core.testing;

import io.xferbench.core.method.Availability;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Skips a test with the method's reason when it cannot run here, or fails it when the environment says
 * every method must run ({@code XFERBENCH_REQUIRE_ALL_METHODS=1}, set by .ci/run on machines known to have
 * epoll, io_uring and O_DIRECT), so CI can never go green by skipping. The one way a test above native skips
 * (SkipsGoThroughMethodAssumptionsTest holds every module to it); a test to which something does not apply does not skip.
 */
public final class MethodAssumptions {
    private MethodAssumptions() {
    }

    public static void assumeAvailable(String id, Availability availability) {
        if (availability.isAvailable()) {
            return;
        }
        String message = id + " skipped: " + availability.unavailableReason();
        if ("1".equals(System.getenv("XFERBENCH_REQUIRE_ALL_METHODS"))) {
            Assertions.fail(message + " (XFERBENCH_REQUIRE_ALL_METHODS=1 demands it runs here)");
        }
        Assumptions.abort(message);
    }

    /** The same for a capability that is not a method's (a tool, root, a kernel feature): {@code reason} names what is missing. */
    public static void assumeAvailable(String what, boolean available, String reason) {
        assumeAvailable(what, available ? Availability.AVAILABLE : Availability.unavailable(reason));
    }
}
