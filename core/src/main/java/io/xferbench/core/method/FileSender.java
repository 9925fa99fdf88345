package io.xferbench.core.method;

import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Moves bytes file → socket. One instance serves one connection (it may keep buffers or an adopted
 * event-loop channel between transfers) and is closed when the connection ends.
 */
public interface FileSender extends AutoCloseable {

    /**
     * Writes exactly {@code length} bytes of {@code file} from {@code position} to the blocking {@code socket},
     * returning only when all are written. Short writes and short transfers are looped over here, never
     * passed on.
     */
    void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException;

    /** Called before anything is written to the peer: refuse a range this method cannot send correctly. */
    default void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
    }

    @Override
    default void close() throws IOException {
    }
}
