package io.xferbench.server;

import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DownloadMethods;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.RelayMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.UploadMethods;
import io.xferbench.core.protocol.Wire;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The INFO answer: who the server is, where it runs, which methods it can run and why not. Every method entry
 * has {@code direction} ({@code download}: file → socket, {@code upload}: socket → file, {@code proxy}: socket →
 * socket relay of {@code xferbench-server --proxy-to}), {@code id}, {@code summary}, {@code available},
 * {@code unavailableReason}; upload methods with a length limit add {@code maxLength} and {@code limitReason}.
 */
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
            methods.add(entry("download", m.id(), m.summary(), m.availability()));
        }
        for (ReceiverMethod m : UploadMethods.all()) {
            Map<String, Object> e = entry("upload", m.id(), m.summary(), m.availability());
            if (m.maxLength() != Long.MAX_VALUE) {
                e.put("maxLength", m.maxLength());
                e.put("limitReason", m.limitReason());
            }
            methods.add(e);
        }
        for (RelayMethod m : RelayMethods.all()) {
            methods.add(entry("proxy", m.id(), m.summary(), m.availability()));
        }
        info.put("methods", methods);
        return info;
    }

    private static Map<String, Object> entry(String direction, String id, String summary, Availability availability) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("direction", direction);
        e.put("id", id);
        e.put("summary", summary);
        e.put("available", availability.isAvailable());
        e.put("unavailableReason", availability.unavailableReason());
        return e;
    }
}
