package io.xferbench.core.method;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * What every method defined from parts shares, whatever it moves: an id, a one-line summary, and an
 * availability probed once, on first use.
 */
public abstract class DefinedMethod {
    private final String id;
    private final String summary;
    private final Supplier<Availability> probe;
    private volatile Availability availability;

    protected DefinedMethod(String id, String summary, Supplier<Availability> probe) {
        this.id = id;
        this.summary = summary;
        this.probe = probe;
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
