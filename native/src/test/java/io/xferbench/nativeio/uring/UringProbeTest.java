package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.Errno;
import org.junit.jupiter.api.Test;

/** The probe's reasons: each refusal names its cause, so a skipped row says what to change. */
class UringProbeTest {
    private static final RingOptions PLAIN = RingOptions.plain(4);

    @Test
    void theSysctlDisablingIoUringIsNamed() {
        assertThat(SetupRefusal.reason(PLAIN, Errno.EPERM, "2", "-1")).contains("kernel.io_uring_disabled=2");
        assertThat(SetupRefusal.reason(PLAIN, Errno.EPERM, "1", "1001"))
                .contains("kernel.io_uring_disabled=1").contains("gid 1001");
    }

    @Test
    void anEpermWithTheSysctlOpenIsTheSandboxOrSqPollsPrivilege() {
        assertThat(SetupRefusal.reason(PLAIN, Errno.EPERM, "0", "-1")).contains("seccomp");
        assertThat(SetupRefusal.reason(PLAIN.withSqPoll(10), Errno.EPERM, "0", "-1"))
                .contains("SQPOLL").contains("CAP_SYS_ADMIN").contains("5.11");
        assertThat(SetupRefusal.reason(PLAIN, Errno.EPERM, null, null)).contains("io_uring_disabled=absent");
    }

    @Test
    void enosysEinvalAndEnomemSayWhatIsMissing() {
        assertThat(SetupRefusal.reason(PLAIN, Errno.ENOSYS, "0", "-1")).contains("CONFIG_IO_URING").contains("seccomp");
        assertThat(SetupRefusal.reason(PLAIN.withSingleIssuer(true), Errno.EINVAL, "0", "-1"))
                .contains("SINGLE_ISSUER+DEFER_TASKRUN").contains("6.1");
        assertThat(SetupRefusal.reason(PLAIN, Errno.ENOMEM, "0", "-1")).contains("RLIMIT_MEMLOCK");
    }

    @Test
    void theProbeHereListsEveryOption() {
        UringProbe probe = UringProbe.here();
        assertThat(probe.describe()).hasSize(7).allSatisfy(line -> assertThat(line).matches("[^:]+: (yes|no \\(.+\\))"));
        if (probe.ring() != null) {
            assertThat(probe.fixedBuffers()).isEqualTo(probe.ring());
        }
    }
}
