package io.xferbench.client.load.target;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * An xferbench server's own measurement window, on a control connection of its own: MEASURE_BEGIN when it opens,
 * MEASURE_END when it closes. The server reports its process-wide CPU, context switches, syscalls (perf, where it can
 * count), threads started and carrier threads. Connecting and beginning are apart, so that a watcher can open every
 * control connection it needs (each may cost the server a thread) before any window begins. Each answer is awaited
 * for a bounded time (the answer timeout and a minute for perf): a server that stopped answering fails the row's
 * server figures instead of hanging the run.
 */
final class ServerWindow implements AutoCloseable {
    private final XferConnection control;

    private ServerWindow(XferConnection control) {
        this.control = control;
    }

    /** The control connection, no window yet. */
    static ServerWindow connect(InetSocketAddress server, String token, Duration answerTimeout) throws IOException {
        return new ServerWindow(XferConnection.open(server.getHostString(), server.getPort(), token, answerTimeout));
    }

    /** @param countSyscalls whether the server counts its own syscalls (off when they are counted from outside) */
    void begin(boolean countSyscalls) throws IOException {
        control.control(Op.MEASURE_BEGIN, countSyscalls ? 0 : Flags.NO_SYSCALL_COUNT);
    }

    MeasurementReport end() throws IOException {
        return ProtocolJson.read(control.control(Op.MEASURE_END, 0), MeasurementReport.class);
    }

    @Override
    public void close() throws IOException {
        control.close();
    }
}
