package io.xferbench.core.method;

/** Whether a method can run on this machine; when not, the reason a results table prints as "skipped: ...". */
public record Availability(String unavailableReason) {
    public static final Availability AVAILABLE = new Availability(null);

    public static Availability unavailable(String reason) {
        return new Availability(reason);
    }

    public boolean isAvailable() {
        return unavailableReason == null;
    }
}
