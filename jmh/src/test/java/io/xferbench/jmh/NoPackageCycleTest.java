package io.xferbench.jmh;

import io.xferbench.core.testing.PackageCycles;
import org.junit.jupiter.api.Test;

class NoPackageCycleTest {
    @Test
    void jmhPackagesFormNoCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
    }
}
