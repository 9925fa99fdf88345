package io.xferbench.server;

import io.xferbench.core.testing.PackageCycles;
import org.junit.jupiter.api.Test;

class NoPackageCycleTest {
    /**
     * The root package only wires (ServerMain, XferServer, ServerModels, ServerInfo); what the sub-packages share is in
     * packages below them (config, model, fault, http, request), so none of them depends back on the root.
     */
    @Test
    void serverPackagesFormNoCycle() {
        PackageCycles.assertNone(PackageCycles.moduleClasses());
    }
}
