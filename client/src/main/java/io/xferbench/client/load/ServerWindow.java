package io.xferbench.client.load;

import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * An xferbench server's own measurement window, on a control connection of its own: MEASURE_BEGIN when it opens,
 * MEASURE_END when it closes. The server reports its process-wide CPU, context switches, syscalls (perf, where it can
 * count), threads started and carrier threads. Connecting and beginning are apart, so that a watcher can open every
 * control connection it needs (each may cost the server a thread) before any window begins.
 */
final class ServerWindow implements AutoCloseable {
    private final SocketChannel control;
    private final String token;

    private ServerWindow(SocketChannel control, String token) {
        this.control = control;
        this.token = token;
    }

    /** The control connection, no window yet. */
    static ServerWindow connect(InetSocketAddress server, String token) throws IOException {
        return new ServerWindow(SocketChannel.open(server), token);
    }

    /** @param countSyscalls whether the server counts its own syscalls (off when they are counted from outside) */
    void begin(boolean countSyscalls) throws IOException {
        exchange(Op.MEASURE_BEGIN, countSyscalls ? 0 : Flags.NO_SYSCALL_COUNT);
    }

    MeasurementReport end() throws IOException {
        return ProtocolJson.read(exchange(Op.MEASURE_END, 0), MeasurementReport.class);
    }

    private byte[] exchange(Op op, int flags) throws IOException {
        Frames.writeFully(control, RequestCodec.encode(Request.control(op, flags).withToken(token)));
        return ResponseCodec.readJson(control);
    }

    @Override
    public void close() throws IOException {
        control.close();
    }
}
