package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * What every method defined from parts shares, whatever it moves: an id, a one-line summary, an availability
 * probed once, on first use, and its {@link MethodTraits}.
 */
public abstract class DefinedMethod implements TransferMethod {
    private final String id;
    private final String summary;
    private final Supplier<Availability> probe;
    private final MethodTraits traits;
    private volatile Availability availability;

    protected DefinedMethod(String id, String summary, Supplier<Availability> probe, MethodTraits traits) {
        this.id = id;
        this.summary = summary;
        this.probe = probe;
        this.traits = traits;
    }

    @Override
    public MethodTraits traits() {
        return traits;
    }

    public String id() {
        return id;
    }

    public String summary() {
        return summary;
    }

    public Availability availability() {
        Availability a = availability;
        if (a == null) {
            availability = a = probe.get();
        }
        return a;
    }

    /** Factories call this first: an unavailable method never builds half an instance. */
    protected final void requireAvailable() throws IOException {
        Availability a = availability();
        if (!a.isAvailable()) {
            throw new IOException(id + " is unavailable here: " + a.unavailableReason());
        }
    }

    @Override
    public String toString() {
        return id;
    }
}
