package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/** A {@link ReceiverMethod} assembled from its parts. */
public final class DefinedReceiverMethod extends DefinedMethod implements ReceiverMethod {

    /** Creates a per-connection receiver. */
    @FunctionalInterface
    public interface Factory {
        FileReceiver create(TransferOptions options) throws IOException;
    }

    private final long maxLength;
    private final String limitReason;
    private final Factory factory;
    private final ToLongFunction<TransferOptions> bufferBytes;

    public DefinedReceiverMethod(String id, String summary, Supplier<Availability> probe, long maxLength, String limitReason,
                                 MethodTraits traits, Factory factory) {
        this(id, summary, probe, maxLength, limitReason, traits, factory, TransferOptions::bufferSize);
    }

    /** @param bufferBytes the buffer memory an instance holds (see {@link #bufferBytes}), for a method that keeps several */
    public DefinedReceiverMethod(String id, String summary, Supplier<Availability> probe, long maxLength, String limitReason,
                                 MethodTraits traits, Factory factory, ToLongFunction<TransferOptions> bufferBytes) {
        super(id, summary, probe, traits);
        this.maxLength = maxLength;
        this.limitReason = limitReason;
        this.factory = factory;
        this.bufferBytes = bufferBytes;
    }

    @Override
    public long bufferBytes(TransferOptions options) {
        return bufferBytes.applyAsLong(options);
    }

    public static DefinedReceiverMethod alwaysAvailable(String id, String summary, MethodTraits traits, Factory factory) {
        return new DefinedReceiverMethod(id, summary, () -> Availability.AVAILABLE, Long.MAX_VALUE, "", traits, factory);
    }

    @Override
    public long maxLength() {
        return maxLength;
    }

    @Override
    public String limitReason() {
        return limitReason;
    }

    @Override
    public FileReceiver newReceiver(TransferOptions options) throws IOException {
        requireAvailable();
        return factory.create(options);
    }
}
