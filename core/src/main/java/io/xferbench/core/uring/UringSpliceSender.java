package io.xferbench.core.uring;

import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.pipe.PipeSource;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.Splice;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Sends a file as linked IORING_OP_SPLICE pairs through a pipe ({@link LinkedSplicePipeline}). The pipe comes from
 * {@code pipes} per transfer and goes back only when empty; the socket's fd is duplicated per transfer as in
 * {@link UringFileSender}. The calling thread only waits, until no SQE of the transfer is in flight.
 */
public final class UringSpliceSender implements FileSender {
    private final PipeSource pipes;
    private final boolean link;

    /** @param pipes where the pipe comes from; its size is the most one splice pair moves */
    public UringSpliceSender(PipeSource pipes) {
        this(pipes, true);
    }

    /** @param link false only in tests: every pair unlinked, as when Netty's early submit cuts the link */
    UringSpliceSender(PipeSource pipes, boolean link) {
        this.pipes = pipes;
        this.link = link;
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        Splice.Pipe pipe = pipes.acquire();
        boolean empty = false;
        try {
            int sock = Fds.dup(Fds.of(socket));
            try {
                LinkedSplicePipeline pipeline = new LinkedSplicePipeline(Fds.of(file.channel()), pipe.readFd(), pipe.writeFd(),
                        pipe.size(), sock, position, length, link);
                try {
                    pipeline.run();
                } finally {
                    empty = pipeline.pipeEmpty();
                }
            } finally {
                Fds.close(sock);
            }
        } finally {
            pipes.release(pipe, empty);
        }
    }
}
