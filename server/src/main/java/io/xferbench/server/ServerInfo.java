package io.xferbench.server;

import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.method.DownloadMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.protocol.Wire;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The INFO answer: who the server is, where it runs, which methods it can run and why not. */
final class ServerInfo {
    private ServerInfo() {
    }

    static Map<String, Object> describe(ServerConfig config) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("server", "xferbench");
        info.put("protocol", Wire.VERSION);
        info.put("pid", ProcessHandle.current().pid());
        info.put("environment", EnvironmentInfo.describe(config.dataDir()));
        List<Map<String, Object>> methods = new ArrayList<>();
        for (SenderMethod m : DownloadMethods.all()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("direction", "download");
            e.put("id", m.id());
            e.put("summary", m.summary());
            e.put("available", m.availability().isAvailable());
            e.put("unavailableReason", m.availability().unavailableReason());
            methods.add(e);
        }
        info.put("methods", methods);
        return info;
    }
}
