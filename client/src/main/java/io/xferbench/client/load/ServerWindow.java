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
 * An xferbench server's own measurement window over a load run, on a control connection of its own: MEASURE_BEGIN
 * when the run's window opens, MEASURE_END when it closes. The server reports its process-wide CPU, context switches,
 * syscalls (perf, where it can count), threads started and carrier threads.
 */
final class ServerWindow implements AutoCloseable {
    private final SocketChannel control;
    private final String token;

    private ServerWindow(SocketChannel control, String token) {
        this.control = control;
        this.token = token;
    }

    /** @param countSyscalls whether the server counts its own syscalls (off when they are counted from outside) */
    static ServerWindow open(InetSocketAddress server, String token, boolean countSyscalls) throws IOException {
        SocketChannel ch = SocketChannel.open(server);
        try {
            ServerWindow w = new ServerWindow(ch, token);
            w.exchange(Op.MEASURE_BEGIN, countSyscalls ? 0 : Flags.NO_SYSCALL_COUNT);
            return w;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
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
