package io.xferbench.client;

import io.xferbench.core.testing.PackageCycles;
import org.junit.jupiter.api.Test;

class NoPackageCycleTest {
    @Test
    void clientPackagesFormNoCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
    }
}
