package io.xferbench.core.method;

import java.util.List;

/**
 * What the suite's tools need to know about a method, declared next to it so that no list elsewhere can forget it:
 * the gate, the C twins and the JMH benchmarks derive theirs from these (and tests hold them to it).
 *
 * @param socketPaced  its syscall counts follow the socket's pace (non-blocking writes split as the socket fills),
 *                     so the gate gives them a wider band
 * @param twinMode     the mode of the C twin that makes the same syscalls ({@code native/c/xfer_twin.c}; the
 *                     {@code uring-*} modes are {@code native/c/xfer_uring_twin.c}'s, the receiving one
 *                     {@code uring-recv-write} among them), or null
 * @param noTwinReason why there is no C twin, when {@code twinMode} is null
 * @param jmhExclusion why the method is not in its default JMH benchmark, or null when it is
 * @param definingSyscalls the syscalls (perf names) that make the method what it is, e.g. {@code sendfile64}: reports
 *                     always show their counts, however small, so a table never hides the call that defines a row
 * @param tls          the body flows inside a TLS session the client must open after the answer's head
 *                     (docs/tls.md, "How TLS runs here"): a client needs the server's certificate to download with it
 */
public record MethodTraits(boolean socketPaced, String twinMode, String noTwinReason, String jmhExclusion,
                           List<String> definingSyscalls, boolean tls) {
    /** No C twin, in the default JMH set, not paced. A download or upload method must not use it: each says why it has no twin. */
    public static final MethodTraits PLAIN = new MethodTraits(false, null, null, null, List.of());

    /**
     * Why an upload method has no C twin: the upload harness ({@code scripts/twin --direction upload}, a C feeder into
     * the receiver under test) exists, but only io-uring-recv-write has a receiving C mode so far.
     */
    public static final String NO_UPLOAD_TWIN_YET = "no receiving C twin yet (scripts/twin --direction upload pairs io-uring-recv-write only)";

    /** The syscall an io_uring method enters by; its SQE counts mean something only for such methods. */
    public static final String IO_URING_ENTER = "io_uring_enter";

    public MethodTraits {
        definingSyscalls = List.copyOf(definingSyscalls);
    }

    /** Traits of a plaintext method. */
    public MethodTraits(boolean socketPaced, String twinMode, String noTwinReason, String jmhExclusion, List<String> definingSyscalls) {
        this(socketPaced, twinMode, noTwinReason, jmhExclusion, definingSyscalls, false);
    }

    public static MethodTraits twin(String mode) {
        return new MethodTraits(false, mode, null, null, List.of());
    }

    /** A method without a C twin, and why. */
    public static MethodTraits noTwin(String reason) {
        return new MethodTraits(false, null, reason, null, List.of());
    }

    public MethodTraits paced() {
        return new MethodTraits(true, twinMode, noTwinReason, jmhExclusion, definingSyscalls, tls);
    }

    public MethodTraits notInJmh(String reason) {
        return new MethodTraits(socketPaced, twinMode, noTwinReason, reason, definingSyscalls, tls);
    }

    /** These traits, for a method whose body is sent inside TLS. */
    public MethodTraits overTls() {
        return new MethodTraits(socketPaced, twinMode, noTwinReason, jmhExclusion, definingSyscalls, true);
    }

    /** These traits, with the syscalls that define the method. */
    public MethodTraits definedBy(String... syscalls) {
        return new MethodTraits(socketPaced, twinMode, noTwinReason, jmhExclusion, List.of(syscalls), tls);
    }

    /** Whether the method submits its work through io_uring (so SQE counts belong to it). */
    public boolean usesIoUring() {
        return definingSyscalls.contains(IO_URING_ENTER);
    }

    public boolean inJmh() {
        return jmhExclusion == null;
    }
}
