package io.xferbench.server.proxy;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.BufferMemoryLimit;

/**
 * Which relay a first frame gets: the default one for a plain request, the one a PROXY frame names (or the default)
 * with its buffer; refused when that relay is unknown, unavailable here, its buffer too small to take effect, or
 * its buffers do not fit the proxy-wide budget.
 */
final class RelaySetup {
    private final ProxyConfig config;
    private final BufferBudget budget;

    RelaySetup(ProxyConfig config) {
        this.config = config;
        this.budget = new BufferBudget(BufferMemoryLimit.within(config.maxBufferMemory()));
    }

    /** Checks the default relay before the proxy listens: a proxy whose plain connections cannot be relayed is a usage error. */
    static void checkDefault(ProxyConfig config) {
        RelayMethod relay = RelayMethods.byId(config.defaultRelay()).orElseThrow(() -> new IllegalArgumentException(
                "unknown relay '" + config.defaultRelay() + "' (known: " + String.join(", ", RelayMethods.ids()) + ")"));
        if (!relay.availability().isAvailable()) {
            throw new IllegalArgumentException("relay " + relay.id() + " is unavailable here: " + relay.availability().unavailableReason());
        }
    }

    RelayChoice choose(Request first) {
        if (first.op() != Op.PROXY) {
            return reserve(RelayMethods.byId(config.defaultRelay()).orElseThrow(), new TransferOptions(config.bufferSize(), false));
        }
        String id = first.method().isEmpty() ? config.defaultRelay() : first.method();
        RelayMethod m = RelayMethods.byId(id).orElse(null);
        if (m == null) {
            return new RelayChoice.Refused(Status.BAD_REQUEST, "unknown relay '" + id + "' (known: " + String.join(", ", RelayMethods.ids()) + ")");
        }
        Availability a = m.availability();
        if (!a.isAvailable()) {
            return new RelayChoice.Refused(Status.UNAVAILABLE, m.id() + ": " + a.unavailableReason());
        }
        TransferOptions options = new TransferOptions(first.bufferSize() > 0 ? first.bufferSize() : config.bufferSize(), false);
        if (options.bufferSize() < m.minBufferSize()) {
            // Relayed anyway, it would be measured as a buffer it does not have.
            return new RelayChoice.Refused(Status.BAD_REQUEST, m.id() + ": relay buffer " + options.bufferSize() + " is below "
                    + m.minBufferSize() + ", the least that takes effect");
        }
        return reserve(m, options);
    }

    /** Gives back what a {@link RelayChoice.Chosen} reserved (0: nothing). */
    void release(long reserved) {
        budget.release(reserved);
    }

    /**
     * Reserves the relay's buffers from the budget before they are allocated (256 connections of 64 MiB buffers
     * would otherwise take the proxy to an OutOfMemoryError); if they do not fit, the client is told BUSY.
     */
    private RelayChoice reserve(RelayMethod method, TransferOptions options) {
        long bytes = method.bufferBytes(options);
        if (budget.tryReserve(bytes)) {
            return new RelayChoice.Chosen(method, options, bytes);
        }
        return new RelayChoice.Refused(Status.BUSY, "relay buffers of " + budget.reserved() + " bytes are in use proxy-wide; "
                + method.id() + " with a " + options.bufferSize() + "-byte buffer needs " + bytes + " more, past --max-buffer-memory "
                + budget.limit());
    }
}
