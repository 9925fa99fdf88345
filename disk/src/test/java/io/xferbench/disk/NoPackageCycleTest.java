package io.xferbench.disk;

import io.xferbench.core.testing.PackageCycles;
import org.junit.jupiter.api.Test;

class NoPackageCycleTest {
    @Test
    void diskPackagesFormNoCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
    }
}
