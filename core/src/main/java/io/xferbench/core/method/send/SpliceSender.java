package io.xferbench.core.method.send;

import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Raw splice(2) file → pipe → socket through the native shim ({@code Splice.fileToSocket}), on the JDK's blocking
 * socket fd, with the pipe taken from a {@link PipeSource} for every send and given back after it: with
 * {@link PipeSource#fresh} that is pipe2(2) (+ F_SETPIPE_SZ) and two close(2) per send, as Netty's splice paths
 * do; with a {@link io.xferbench.core.pipe.PipePool} the pipe of an earlier send. Not a registered download method
 * (the download table keeps its rows); {@code PipeSetupBenchmark} measures it. Check availability with
 * {@link io.xferbench.core.pipe.RawSplice#availability()}.
 */
public final class SpliceSender implements FileSender {
    private final PipeSource pipes;

    public SpliceSender(PipeSource pipes) {
        this.pipes = pipes;
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        Splice.Pipe pipe = pipes.acquire();
        boolean clean = false;
        try {
            Splice.fileToSocket(Fds.of(file.channel()), position, length, Fds.of(socket), pipe);
            clean = true; // fileToSocket returns only once the pipe is drained into the socket
        } finally {
            pipes.release(pipe, clean);
        }
    }
}
