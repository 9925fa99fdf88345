package io.xferbench.nativeio.uring;

import io.xferbench.nativeio.Errno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Why io_uring_setup refused a ring, in words a skipped row can show: the errno alone does not say whether the kernel
 * lacks io_uring, a sysctl or a sandbox forbids it, or only the asked option is unknown or privileged.
 */
final class SetupRefusal {
    private static final Path DISABLED = Path.of("/proc/sys/kernel/io_uring_disabled");
    private static final Path GROUP = Path.of("/proc/sys/kernel/io_uring_group");

    private SetupRefusal() {
    }

    /** The reason for {@code errno}, reading the io_uring sysctls of this machine. */
    static String reason(RingOptions options, int errno) {
        return reason(options, errno, sysctl(DISABLED), sysctl(GROUP));
    }

    /** {@code disabled} and {@code group}: the sysctls' text, null where the kernel has none (before 6.6). */
    static String reason(RingOptions options, int errno, String disabled, String group) {
        return switch (errno) {
            case Errno.ENOSYS -> "io_uring_setup answers ENOSYS: a kernel without CONFIG_IO_URING, or a seccomp filter "
                    + "(container runtime, sandbox) that hides it";
            case Errno.EPERM -> permission(options, disabled, group);
            case Errno.EINVAL -> "io_uring_setup refuses " + options.describe() + " with " + options.entries()
                    + " entries (EINVAL): a flag this kernel does not know (SINGLE_ISSUER needs Linux 6.0, DEFER_TASKRUN 6.1)";
            case Errno.ENOMEM -> "io_uring_setup: ENOMEM; before Linux 5.12 ring memory counts against RLIMIT_MEMLOCK ("
                    + MemoryLock.describe() + ")";
            case Errno.EMFILE, Errno.ENFILE -> "io_uring_setup: " + Errno.name(errno) + ": no descriptor left for the ring";
            default -> "io_uring_setup: " + Errno.name(errno) + " (" + Errno.describe(errno) + ")";
        };
    }

    private static String permission(RingOptions options, String disabled, String group) {
        if ("2".equals(disabled)) {
            return "io_uring is disabled for every process by sysctl kernel.io_uring_disabled=2";
        }
        if ("1".equals(disabled)) {
            return "sysctl kernel.io_uring_disabled=1: only CAP_SYS_ADMIN or members of kernel.io_uring_group ("
                    + (group == null ? "unset" : "gid " + group) + ") may create rings";
        }
        if (options.sqPoll()) {
            return "io_uring_setup refuses SQPOLL (EPERM): before Linux 5.11 the SQ thread needs CAP_SYS_ADMIN; "
                    + "else a seccomp or LSM policy";
        }
        return "io_uring_setup answers EPERM with kernel.io_uring_disabled=" + (disabled == null ? "absent" : disabled)
                + ": a seccomp filter or LSM policy (container runtime, sandbox) forbids io_uring";
    }

    private static String sysctl(Path path) {
        try {
            return Files.readString(path).trim();
        } catch (IOException e) {
            return null;
        }
    }
}
