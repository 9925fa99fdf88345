package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/** A {@link RelayMethod} assembled from its parts; availability is probed once, on first use. */
public final class DefinedRelayMethod implements RelayMethod {

    /** Creates a per-connection relay. */
    @FunctionalInterface
    public interface Factory {
        Relay create(TransferOptions options) throws IOException;
    }

    private final String id;
    private final String summary;
    private final Supplier<Availability> probe;
    private final Factory factory;
    private volatile Availability availability;

    public DefinedRelayMethod(String id, String summary, Supplier<Availability> probe, Factory factory) {
        this.id = id;
        this.summary = summary;
        this.probe = probe;
        this.factory = factory;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String summary() {
        return summary;
    }

    @Override
    public Availability availability() {
        Availability a = availability;
        if (a == null) {
            availability = a = probe.get();
        }
        return a;
    }

    @Override
    public Relay newRelay(TransferOptions options) throws IOException {
        Availability a = availability();
        if (!a.isAvailable()) {
            throw new IOException(id + " is unavailable here: " + a.unavailableReason());
        }
        return factory.create(options);
    }

    @Override
    public String toString() {
        return id;
    }
}
