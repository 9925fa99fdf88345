package io.xferbench.twin;

import io.xferbench.core.testing.PackageCycles;
import org.junit.jupiter.api.Test;

class NoPackageCycleTest {
    @Test
    void twinPackagesFormNoCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
    }
}
