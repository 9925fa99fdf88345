package io.xferbench.core.read;

import io.xferbench.nativeio.uring.RingOptions;
import io.xferbench.nativeio.uring.UringProbe;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The setup flags of the engines on the suite's own ring, a user's choice so that both can be compared (bench-disk's
 * {@code --ring-flags}). {@link #DEFAULT} sets none, the rings as they were before the choice existed;
 * {@link #SINGLE_ISSUER} promises the kernel one submitting thread (IORING_SETUP_SINGLE_ISSUER, Linux 6.0), and on
 * rings without SQPOLL adds IORING_SETUP_DEFER_TASKRUN (6.1): completion work runs when the reader enters the kernel
 * to wait, not as task work that interrupts it. An SQPOLL ring gets SINGLE_ISSUER alone (the kernel refuses
 * DEFER_TASKRUN with SQPOLL). fio 3.33's io_uring twins set both flags themselves where the kernel takes them (not with
 * SQPOLL), whatever this says: {@link #SINGLE_ISSUER} is what gives uring-raw and uring-fixed their twins' flags.
 */
public enum RingFlags {
    DEFAULT("default"),
    SINGLE_ISSUER("single-issuer");

    private final String cliName;

    RingFlags(String cliName) {
        this.cliName = cliName;
    }

    /** The spelling of {@code --ring-flags}. */
    public String cliName() {
        return cliName;
    }

    public static Optional<RingFlags> named(String name) {
        return Arrays.stream(values()).filter(f -> f.cliName.equals(name)).findFirst();
    }

    /** "default, single-issuer": the choices, for a usage error. */
    public static String choices() {
        return Arrays.stream(values()).map(RingFlags::cliName).collect(Collectors.joining(", "));
    }

    /** {@code options} with these flags added. */
    public RingOptions applyTo(RingOptions options) {
        return this == DEFAULT ? options : options.withSingleIssuer(!options.sqPoll());
    }

    /** The IORING_SETUP_* flags these add to a ring without or with SQPOLL, by name (none for the default). */
    public List<String> addedSetupFlags(boolean sqPoll) {
        RingOptions plain = RingOptions.plain(1);
        RingOptions options = applyTo(sqPoll ? plain.withSqPoll(0) : plain);
        List<String> names = new ArrayList<>();
        if (options.singleIssuer()) {
            names.add("SINGLE_ISSUER");
        }
        if (options.deferTaskrun()) {
            names.add("DEFER_TASKRUN");
        }
        return names;
    }

    /** Null when this kernel takes these flags on a ring with or without SQPOLL, else the probe's reason. */
    String unsupported(UringProbe probe, boolean sqPoll) {
        if (this == DEFAULT) {
            return null;
        }
        if (probe.singleIssuer() != null) {
            return probe.singleIssuer();
        }
        return sqPoll ? null : probe.deferTaskrun();
    }

    /** What the rings are set up with, for a report's header. */
    public String describe() {
        return switch (this) {
            case DEFAULT -> cliName + ": no SINGLE_ISSUER or DEFER_TASKRUN on the own rings";
            case SINGLE_ISSUER -> cliName + ": SINGLE_ISSUER+DEFER_TASKRUN on the own rings, SINGLE_ISSUER alone on "
                    + "uring-sqpoll's (the kernel refuses DEFER_TASKRUN with SQPOLL)";
        };
    }
}
