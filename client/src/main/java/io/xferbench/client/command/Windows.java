package io.xferbench.client.command;

import io.xferbench.client.run.TransferDriver;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.ServerDescription;
import java.io.IOException;

/** The measurement windows of the far side: the server's, on a transfer connection, or the proxy's own. */
final class Windows {
    private Windows() {
    }

    /**
     * The server's MEASURE_BEGIN/END, sent on {@code connection} between rounds (it is idle then); without
     * {@code countSyscalls} the server starts no perf, so none of its work is perf's.
     */
    static TransferDriver.Window server(XferConnection connection, boolean countSyscalls) {
        return new TransferDriver.Window() {
            @Override
            public void begin() throws IOException {
                connection.control(Op.MEASURE_BEGIN, countSyscalls ? 0 : Flags.NO_SYSCALL_COUNT);
            }

            @Override
            public MeasurementReport end() throws IOException {
                return ProtocolJson.read(connection.control(Op.MEASURE_END), MeasurementReport.class);
            }
        };
    }

    /**
     * The proxy's own window (CPU and syscalls of the process the relays run in), on a connection of its own that
     * never sends a PROXY frame, so the proxy answers it instead of relaying it.
     */
    static TransferDriver.Window proxy(ServerOptions proxy) throws IOException {
        XferConnection control = proxy.open();
        return new TransferDriver.Window() {
            @Override
            public void begin() throws IOException {
                control.proxySelf(Op.MEASURE_BEGIN);
            }

            @Override
            public MeasurementReport end() throws IOException {
                MeasurementReport result = ProtocolJson.read(control.proxySelf(Op.MEASURE_END), MeasurementReport.class);
                if (!MeasurementReport.PROXY.equals(result.process())) {
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
    static ServerDescription proxyInfo(ServerOptions proxy) throws IOException {
        try (XferConnection c = proxy.open()) {
            ServerDescription info = ProtocolJson.read(c.proxySelf(Op.INFO), ServerDescription.class);
            if (!ServerDescription.PROXY.equals(info.server())) {
                throw new IllegalArgumentException(proxy.host + ":" + proxy.port + " answered as '" + info.server()
                        + "', not as an xferbench proxy measuring itself: start one with "
                        + "'xferbench-server --proxy-to HOST:PORT' (of this version) and point --host/--port at it");
            }
            return info;
        }
    }

    /** A plain INFO (for a proxy: relayed to its upstream server). */
    static ServerDescription info(ServerOptions server) throws IOException {
        try (XferConnection c = server.open()) {
            return ProtocolJson.read(c.control(Op.INFO), ServerDescription.class);
        }
    }
}
