package io.xferbench.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.LoopSender;
import io.xferbench.core.method.LoopSocket;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.server.fault.InternalFaultProbe;
import io.xferbench.server.fault.InternalFaultProbe.Point;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * A download's method with {@link InternalFaultProbe} asked where its senders are: ANSWER at their check (the last
 * step before the answer's first write), BODY at their send (the head out), BODY_WRITE inside it: thrown by a blocking
 * sender's write, a failed write future from a loop sender's, as Netty's own failure arrives.
 *
 * @param name the file the request names, for a loop sender's check, which is not told the file
 */
record ProbedSender(SenderMethod own, String name) implements SenderMethod {
    @Override
    public String id() {
        return own.id();
    }

    @Override
    public String summary() {
        return own.summary();
    }

    @Override
    public Availability availability() {
        return own.availability();
    }

    @Override
    public MethodTraits traits() {
        return own.traits();
    }

    @Override
    public long bufferBytes(TransferOptions options) {
        return own.bufferBytes(options);
    }

    @Override
    public FileSender newSender(TransferOptions options) throws IOException {
        return new Blocking(own.newSender(options));
    }

    @Override
    public LoopSender loopSender() {
        LoopSender loop = own.loopSender();
        return loop == null ? null : new Loop(loop, name);
    }

    private static String nameOf(SourceFile file) {
        return file.path().getFileName().toString();
    }

    private record Blocking(FileSender own) implements FileSender {
        @Override
        public void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
            InternalFaultProbe.at(Point.ANSWER, nameOf(file));
            own.checkSupported(file, position, length);
        }

        @Override
        public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
            InternalFaultProbe.at(Point.BODY, nameOf(file));
            InternalFaultProbe.at(Point.BODY_WRITE, nameOf(file));
            own.send(file, position, length, socket);
        }

        @Override
        public void close() throws IOException {
            own.close();
        }
    }

    private record Loop(LoopSender own, String name) implements LoopSender {
        @Override
        public void checkSupported(LoopSocket socket, long size) throws UnsupportedTransferException {
            InternalFaultProbe.at(Point.ANSWER, name);
            own.checkSupported(socket, size);
        }

        @Override
        public String sentAs(LoopSocket socket, long size) {
            return own.sentAs(socket, size);
        }

        @Override
        public void writeHead(LoopSocket socket, ByteBuf head, long size) {
            own.writeHead(socket, head, size);
        }

        @Override
        public ChannelFuture send(LoopSocket socket, SourceFile file) {
            InternalFaultProbe.at(Point.BODY, nameOf(file));
            try {
                InternalFaultProbe.at(Point.BODY_WRITE, nameOf(file));
            } catch (Throwable injected) {
                return socket.ctx().newFailedFuture(injected);
            }
            return own.send(socket, file);
        }
    }
}
