package io.xferbench.core.method;

/**
 * What the suite's tools need to know about a method, declared next to it so that no list elsewhere can forget it:
 * the gate, the C twins and the JMH benchmarks derive theirs from these (and tests hold them to it).
 *
 * @param socketPaced  its syscall counts follow the socket's pace (non-blocking writes split as the socket fills),
 *                     so the gate gives them a wider band
 * @param twinMode     the mode of the C twin that makes the same syscalls ({@code native/c/xfer_twin.c}; the
 *                     {@code uring-*} modes are {@code native/c/xfer_uring_twin.c}'s), or null
 * @param noTwinReason why there is no C twin, when {@code twinMode} is null
 * @param jmhExclusion why the method is not in its default JMH benchmark, or null when it is
 */
public record MethodTraits(boolean socketPaced, String twinMode, String noTwinReason, String jmhExclusion) {
    /** No C twin (the twins cover downloads; a download must say why it has none), in the default JMH set, not paced. */
    public static final MethodTraits PLAIN = new MethodTraits(false, null, null, null);

    public static MethodTraits twin(String mode) {
        return new MethodTraits(false, mode, null, null);
    }

    /** A download without a C twin, and why. */
    public static MethodTraits noTwin(String reason) {
        return new MethodTraits(false, null, reason, null);
    }

    public MethodTraits paced() {
        return new MethodTraits(true, twinMode, noTwinReason, jmhExclusion);
    }

    public MethodTraits notInJmh(String reason) {
        return new MethodTraits(socketPaced, twinMode, noTwinReason, reason);
    }

    public boolean inJmh() {
        return jmhExclusion == null;
    }
}
