package io.xferbench.core.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.MachineDescription;
import io.xferbench.core.metrics.NetworkLink;
import java.util.List;

/**
 * The INFO answer: who answers, where it runs, which methods it can run and why not.
 *
 * @param server       {@code xferbench} for a server, {@code xferbench-proxy} for a proxy answering about itself
 * @param protocol     {@link Wire#VERSION}
 * @param pid          the answering process (the one a MEASURE window measures)
 * @param upstream     proxy only: {@code HOST:PORT} it relays to, else absent
 * @param defaultRelay proxy only: relay used when a connection does not ask for one
 * @param relayBuffer  proxy only: relay buffer used when a connection does not ask for one
 * @param environment  JDK, kernel, CPUs, file system ({@link MachineDescription}), a server's I/O model: descriptive
 *                     facts shown with results; a tree, since the answering process may be of another version
 * @param network      the answering process's end of the connection INFO came on (interface, MTU, qdisc, offloads);
 *                     absent from servers older than this field
 */
public record ServerDescription(String server, int protocol, long pid,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String upstream,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String defaultRelay,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Integer relayBuffer,
                                JsonNode environment, List<MethodDescription> methods,
                                @JsonInclude(JsonInclude.Include.NON_NULL) NetworkLink network) {
    public static final String SERVER = "xferbench";
    public static final String PROXY = "xferbench-proxy";

    private static final ObjectMapper JSON = new ObjectMapper();

    public ServerDescription {
        environment = environment == null || environment.isNull() ? JSON.createObjectNode() : environment; // absent or "environment": null
        methods = methods == null ? List.of() : List.copyOf(methods);
    }

    /** A server's answer; {@code environment} is the record it describes its machine and I/O model with. */
    public static ServerDescription server(Record environment, List<MethodDescription> methods, NetworkLink network) {
        return new ServerDescription(SERVER, Wire.VERSION, ProcessHandle.current().pid(), null, null, null, JSON.valueToTree(environment),
                methods, network);
    }

    public static ServerDescription proxy(String upstream, String defaultRelay, int relayBuffer, MachineDescription environment,
                                          List<MethodDescription> methods, NetworkLink network) {
        return new ServerDescription(PROXY, Wire.VERSION, ProcessHandle.current().pid(), upstream, defaultRelay, relayBuffer,
                JSON.valueToTree(environment), methods, network);
    }

    /** The methods of one direction. */
    public List<MethodDescription> methods(String direction) {
        return methods.stream().filter(m -> direction.equals(m.direction())).toList();
    }
}
