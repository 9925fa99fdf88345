package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/** A {@link RelayMethod} assembled from its parts. */
public final class DefinedRelayMethod extends DefinedMethod implements RelayMethod {

    /** Creates a per-connection relay. */
    @FunctionalInterface
    public interface Factory {
        Relay create(TransferOptions options) throws IOException;
    }

    private final Factory factory;
    private final ToLongFunction<TransferOptions> bufferBytes;
    private final int minBufferSize;

    /** @param bufferBytes the buffer memory one relay holds while it relays (see {@link #bufferBytes}) */
    public DefinedRelayMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory,
                              ToLongFunction<TransferOptions> bufferBytes) {
        this(id, summary, probe, traits, factory, bufferBytes, 1);
    }

    /** @param minBufferSize the smallest buffer that takes effect as asked (see {@link #minBufferSize}) */
    public DefinedRelayMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits, Factory factory,
                              ToLongFunction<TransferOptions> bufferBytes, int minBufferSize) {
        super(id, summary, probe, traits);
        this.factory = factory;
        this.bufferBytes = bufferBytes;
        this.minBufferSize = minBufferSize;
    }

    @Override
    public int minBufferSize() {
        return minBufferSize;
    }

    @Override
    public long bufferBytes(TransferOptions options) {
        return bufferBytes.applyAsLong(options);
    }

    @Override
    public Relay newRelay(TransferOptions options) throws IOException {
        requireAvailable();
        return factory.create(options);
    }
}
