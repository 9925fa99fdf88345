package io.xferbench.jmh;

import io.xferbench.core.method.Availability;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.registry.UploadMethods;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * What every transfer benchmark's {@code @Setup} does first and last: look the {@code @Param} method up in its
 * registry, refuse one that cannot run here with the "SKIPPED: ..." message JMH prints (no result row, never a
 * faked one), and after the first op refuse a method whose bytes arrived wrong.
 */
final class BenchMethods {
    private BenchMethods() {
    }

    static SenderMethod download(String id) {
        return available("download method", id, DownloadMethods.byId(id), DownloadMethods.ids(), SenderMethod::availability);
    }

    static ReceiverMethod upload(String id) {
        return available("upload method", id, UploadMethods.byId(id), UploadMethods.ids(), ReceiverMethod::availability);
    }

    static RelayMethod relay(String id) {
        return available("relay", id, RelayMethods.byId(id), RelayMethods.ids(), RelayMethod::availability);
    }

    /** Fails the trial as skipped, with the reason, unless {@code availability} says {@code what} can run here. */
    static void requireAvailable(String what, Availability availability) {
        if (!availability.isAvailable()) {
            throw new IllegalStateException("SKIPPED: " + what + " is unavailable here: " + availability.unavailableReason());
        }
    }

    /** Fails the trial unless the receiver's CRC32C of the first body is {@code expected}. */
    static void requireReceived(String what, OptionalInt received, int expected) {
        if (received.isEmpty() || received.getAsInt() != expected) {
            throw new IllegalStateException(what + " delivered wrong bytes: receiver CRC32C "
                    + (received.isEmpty() ? "none" : Integer.toHexString(received.getAsInt())) + ", file " + Integer.toHexString(expected));
        }
    }

    private static <M> M available(String kind, String id, Optional<M> found, List<String> known, Function<M, Availability> availability) {
        M method = found.orElseThrow(() -> new IllegalArgumentException("unknown " + kind + " '" + id + "'; known: " + known));
        requireAvailable(id, availability.apply(method));
        return method;
    }
}
