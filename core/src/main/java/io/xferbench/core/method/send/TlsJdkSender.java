package io.xferbench.core.method.send;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.core.tls.TlsBuffers;
import io.xferbench.core.tls.TlsChannel;
import io.xferbench.core.tls.TlsEndpoint;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * TLS 1.3 through the JDK's {@code SSLEngine}: after the head, the server's handshake on the blocking socket, then the
 * file read in 16 KiB steps (one record's plaintext) into a direct buffer, wrapped and written, then the server's half
 * of the close dance (docs/tls.md). The bytes must pass through user space to be encrypted, so no zero-copy path applies.
 */
public final class TlsJdkSender implements FileSender {
    static final int RECORD = 16 * 1024;
    /** The file buffer and the channel's record buffers (four records each way, one decrypted record). */
    private static final long HELD_BYTES = RECORD + 9L * (RECORD + 512);

    public static final SenderMethod METHOD = new DefinedSenderMethod("tls-jdk",
            "TLS 1.3, JDK SSLEngine: FileChannel.read(direct 16 KiB) -> wrap -> SocketChannel.write: pread64(2) + write(2) per record",
            () -> Availability.AVAILABLE,
            MethodTraits.noTwin("the C twins send in clear; a TLS twin would measure OpenSSL, not this JDK engine (issue 46)")
                    .notInJmh("FileToSocketBenchmark's drain reads in clear and cannot open the TLS session; "
                            + "TLS wrap/unwrap get a JMH family of their own (issue 46)")
                    .definedBy("pread64", "write").overTls(),
            TlsJdkSender::new, options -> HELD_BYTES);

    private final TlsEndpoint tls;
    private final TlsBuffers buffers = new TlsBuffers();
    private final ByteBuffer chunk = ByteBuffer.allocateDirect(RECORD);

    private TlsJdkSender(TransferOptions options) {
        this.tls = options.tls();
    }

    @Override
    public void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
        if (tls == null) {
            throw new UnsupportedTransferException("this server has no TLS certificate: start it with --tls or --tls-cert/--tls-key");
        }
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        TlsChannel channel = TlsChannel.accept(socket, tls, buffers, String.valueOf(socket.getRemoteAddress()));
        long pos = position;
        long end = position + length;
        while (pos < end) {
            chunk.clear().limit((int) Math.min(RECORD, end - pos));
            int n = file.channel().read(chunk, pos);
            if (n < 0) {
                throw new EOFException(file.path() + " ended at " + pos + " of " + end + " bytes (shrank under the transfer?)");
            }
            pos += n;
            channel.write(chunk.flip());
        }
        channel.closeAsServer();
    }
}
