package io.xferbench.core.tls;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLSession;

/**
 * The direct buffers of a {@link TlsChannel}: records in, records out and decrypted bytes not yet read. Held by a
 * connection's sender or receiver and reused by each transfer's channel, so a kept-alive connection allocates them once.
 */
public final class TlsBuffers {
    /** Records read or written per syscall at most: one read(2) of up to four records saves three on a long body. */
    static final int RECORDS_PER_IO = 4;

    private ByteBuffer netIn = ByteBuffer.allocateDirect(0);
    private ByteBuffer netOut = ByteBuffer.allocateDirect(0);
    private ByteBuffer appIn = ByteBuffer.allocateDirect(0);

    /** Makes the buffers big enough for {@code session}'s records and empties them for a new transfer. */
    void prepare(SSLSession session) {
        int packets = session.getPacketBufferSize() * RECORDS_PER_IO;
        if (netIn.capacity() < packets) {
            netIn = ByteBuffer.allocateDirect(packets);
            netOut = ByteBuffer.allocateDirect(packets);
        }
        if (appIn.capacity() < session.getApplicationBufferSize()) {
            appIn = ByteBuffer.allocateDirect(session.getApplicationBufferSize());
        }
        netIn.clear();
        netOut.clear();
        appIn.clear().flip();
    }

    /** Records read and not yet unwrapped; in fill mode between calls. */
    ByteBuffer netIn() {
        return netIn;
    }

    /** Records to write; cleared before each use. */
    ByteBuffer netOut() {
        return netOut;
    }

    /** Decrypted bytes not yet handed to a reader; in drain mode between calls. */
    ByteBuffer appIn() {
        return appIn;
    }
}
