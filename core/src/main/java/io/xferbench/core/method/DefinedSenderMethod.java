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

    public DefinedSenderMethod(String id, String summary, Supplier<Availability> probe, Factory factory) {
        super(id, summary, probe);
        this.factory = factory;
    }

    public static DefinedSenderMethod alwaysAvailable(String id, String summary, Factory factory) {
        return new DefinedSenderMethod(id, summary, () -> Availability.AVAILABLE, factory);
    }

    @Override
    public FileSender newSender(TransferOptions options) throws IOException {
        requireAvailable();
        return factory.create(options);
    }
}
