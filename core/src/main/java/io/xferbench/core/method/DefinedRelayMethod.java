package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/** A {@link RelayMethod} assembled from its parts. */
public final class DefinedRelayMethod extends DefinedMethod implements RelayMethod {

    /** Creates a per-connection relay. */
    @FunctionalInterface
    public interface Factory {
        Relay create(TransferOptions options) throws IOException;
    }

    private final Factory factory;

    public DefinedRelayMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory) {
        super(id, summary, probe, traits);
        this.factory = factory;
    }

    @Override
    public Relay newRelay(TransferOptions options) throws IOException {
        requireAvailable();
        return factory.create(options);
    }
}
