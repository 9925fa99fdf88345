package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/** A {@link SenderMethod} assembled from its parts. */
public final class DefinedSenderMethod extends DefinedMethod implements SenderMethod {

    /** Creates a per-connection sender. */
    @FunctionalInterface
    public interface Factory {
        FileSender create(TransferOptions options) throws IOException;
    }

    private final Factory factory;
    private final ToLongFunction<TransferOptions> bufferBytes;

    public DefinedSenderMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory) {
        this(id, summary, probe, traits, factory, TransferOptions::bufferSize);
    }

    /** @param bufferBytes the buffer memory an instance holds (see {@link #bufferBytes}), for a method that keeps several */
    public DefinedSenderMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory,
                               ToLongFunction<TransferOptions> bufferBytes) {
        super(id, summary, probe, traits);
        this.factory = factory;
        this.bufferBytes = bufferBytes;
    }

    @Override
    public long bufferBytes(TransferOptions options) {
        return bufferBytes.applyAsLong(options);
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
