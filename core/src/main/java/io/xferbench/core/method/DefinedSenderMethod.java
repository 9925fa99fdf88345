package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/** A {@link SenderMethod} assembled from its parts. */
public final class DefinedSenderMethod extends DefinedMethod implements SenderMethod {

    /** Creates a per-connection sender. */
    @FunctionalInterface
    public interface Factory {
        FileSender create(TransferOptions options) throws IOException;
    }

    private final Factory factory;

    public DefinedSenderMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory) {
        super(id, summary, probe, traits);
        this.factory = factory;
    }

    public static DefinedSenderMethod alwaysAvailable(String id, String summary, MethodTraits traits, Factory factory) {
        return new DefinedSenderMethod(id, summary, () -> Availability.AVAILABLE, traits, factory);
    }

    @Override
    public FileSender newSender(TransferOptions options) throws IOException {
        requireAvailable();
        return factory.create(options);
    }
}
