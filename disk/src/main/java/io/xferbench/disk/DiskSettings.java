package io.xferbench.disk;

import io.xferbench.core.read.RingFlags;
import java.util.List;

/**
 * The run's settings a tool reading its JSON compares by value rather than by reading prose (the environment's
 * entries are text for people): the own rings' setup flags.
 *
 * @param ringFlags             {@code --ring-flags} as given ({@code default}, {@code single-issuer})
 * @param ringSetupFlags        the IORING_SETUP_* flags that adds to the uring-raw, uring-fixed and uring-dontcache rings
 * @param sqPollRingSetupFlags  those it adds to the uring-sqpoll rings
 */
record DiskSettings(String ringFlags, List<String> ringSetupFlags, List<String> sqPollRingSetupFlags) {
    static DiskSettings of(DiskBench.Options o) {
        return new DiskSettings(o.ringFlags.cliName(), o.ringFlags.addedSetupFlags(false), o.ringFlags.addedSetupFlags(true));
    }
}
