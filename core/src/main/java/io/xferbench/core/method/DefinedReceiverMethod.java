package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/** A {@link ReceiverMethod} assembled from its parts; availability is probed once, on first use. */
public final class DefinedReceiverMethod implements ReceiverMethod {

    /** Creates a per-connection receiver. */
    @FunctionalInterface
    public interface Factory {
        FileReceiver create(TransferOptions options) throws IOException;
    }

    private final String id;
    private final String summary;
    private final Supplier<Availability> probe;
    private final long maxLength;
    private final String limitReason;
    private final Factory factory;
    private volatile Availability availability;

    public DefinedReceiverMethod(String id, String summary, Supplier<Availability> probe, long maxLength, String limitReason,
                                 Factory factory) {
        this.id = id;
        this.summary = summary;
        this.probe = probe;
        this.maxLength = maxLength;
        this.limitReason = limitReason;
        this.factory = factory;
    }

    public static DefinedReceiverMethod alwaysAvailable(String id, String summary, Factory factory) {
        return new DefinedReceiverMethod(id, summary, () -> Availability.AVAILABLE, Long.MAX_VALUE, "", factory);
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
    public long maxLength() {
        return maxLength;
    }

    @Override
    public String limitReason() {
        return limitReason;
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
    public FileReceiver newReceiver(TransferOptions options) throws IOException {
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
