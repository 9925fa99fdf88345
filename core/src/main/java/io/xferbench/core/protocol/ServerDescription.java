package io.xferbench.core.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.xferbench.core.metrics.NetworkLink;
import java.util.List;
import java.util.Map;

/**
 * The INFO answer: who answers, where it runs, which methods it can run and why not.
 *
 * @param server       {@code xferbench} for a server, {@code xferbench-proxy} for a proxy answering about itself
 * @param protocol     {@link Wire#VERSION}
 * @param pid          the answering process (the one a MEASURE window measures)
 * @param upstream     proxy only: {@code HOST:PORT} it relays to, else absent
 * @param defaultRelay proxy only: relay used when a connection does not ask for one
 * @param relayBuffer  proxy only: relay buffer used when a connection does not ask for one
 * @param environment  JDK, kernel, CPUs, file system ({@link io.xferbench.core.metrics.EnvironmentInfo}): descriptive
 *                     facts shown with results, free-form on purpose
 * @param network      the answering process's end of the connection INFO came on (interface, MTU, qdisc, offloads);
 *                     absent from servers older than this field
 */
public record ServerDescription(String server, int protocol, long pid,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String upstream,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String defaultRelay,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Integer relayBuffer,
                                Map<String, Object> environment, List<MethodDescription> methods,
                                @JsonInclude(JsonInclude.Include.NON_NULL) NetworkLink network) {
    public static final String SERVER = "xferbench";
    public static final String PROXY = "xferbench-proxy";

    public ServerDescription {
        environment = environment == null ? Map.of() : environment;
        methods = methods == null ? List.of() : List.copyOf(methods);
    }

    public static ServerDescription server(Map<String, Object> environment, List<MethodDescription> methods, NetworkLink network) {
        return new ServerDescription(SERVER, Wire.VERSION, ProcessHandle.current().pid(), null, null, null, environment, methods,
                network);
    }

    public static ServerDescription proxy(String upstream, String defaultRelay, int relayBuffer, Map<String, Object> environment,
                                          List<MethodDescription> methods, NetworkLink network) {
        return new ServerDescription(PROXY, Wire.VERSION, ProcessHandle.current().pid(), upstream, defaultRelay, relayBuffer,
                environment, methods, network);
    }

    /** The methods of one direction. */
    public List<MethodDescription> methods(String direction) {
        return methods.stream().filter(m -> direction.equals(m.direction())).toList();
    }
}
