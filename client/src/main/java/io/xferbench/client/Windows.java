package io.xferbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import java.io.IOException;

/** The measurement windows of the far side: the server's, on a transfer connection, or the proxy's own. */
final class Windows {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Windows() {
    }

    /** The server's MEASURE_BEGIN/END, sent on {@code connection} between rounds (it is idle then). */
    static TransferDriver.Window server(XferConnection connection) {
        return new TransferDriver.Window() {
            @Override
            public void begin() throws IOException {
                connection.control(Op.MEASURE_BEGIN);
            }

            @Override
            public JsonNode end() throws IOException {
                return JSON.readTree(connection.control(Op.MEASURE_END));
            }
        };
    }

    /**
     * The proxy's own window (CPU and syscalls of the process the relays run in), on a connection of its own that
     * never sends a PROXY frame, so the proxy answers it instead of relaying it.
     */
    static TransferDriver.Window proxy(ServerOptions proxy) throws IOException {
        XferConnection control = XferConnection.open(proxy.host, proxy.port, proxy.token);
        return new TransferDriver.Window() {
            @Override
            public void begin() throws IOException {
                control.proxySelf(Op.MEASURE_BEGIN);
            }

            @Override
            public JsonNode end() throws IOException {
                JsonNode result = JSON.readTree(control.proxySelf(Op.MEASURE_END));
                if (!"proxy".equals(result.path("process").asText())) {
                    throw new IOException("the measurement window was not the proxy's: " + result);
                }
                return result;
            }

            @Override
            public void close() throws IOException {
                control.close();
            }
        };
    }

    /** The proxy's own INFO, refusing anything that is not an xferbench proxy answering about itself. */
    static JsonNode proxyInfo(ServerOptions proxy) throws IOException {
        try (XferConnection c = XferConnection.open(proxy.host, proxy.port, proxy.token)) {
            JsonNode info = JSON.readTree(c.proxySelf(Op.INFO));
            String who = info.path("server").asText();
            if (!"xferbench-proxy".equals(who)) {
                throw new IllegalArgumentException(proxy.host + ":" + proxy.port + " answered as '" + who
                        + "', not as an xferbench proxy measuring itself: start one with "
                        + "'xferbench-server --proxy-to HOST:PORT' (of this version) and point --host/--port at it");
            }
            return info;
        }
    }

    /** A plain INFO (for a proxy: relayed to its upstream server). */
    static JsonNode info(ServerOptions server) throws IOException {
        try (XferConnection c = XferConnection.open(server.host, server.port, server.token)) {
            return JSON.readTree(c.control(Op.INFO));
        }
    }
}
