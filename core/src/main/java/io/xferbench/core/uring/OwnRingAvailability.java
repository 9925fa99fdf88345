package io.xferbench.core.uring;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.SourceFile;
import io.xferbench.nativeio.uring.UringProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether the methods on the suite's own ring ({@link FixedBufferSender}) can run here: the ring, registered buffers
 * and registered files as {@link UringProbe} found them, and for SEND_ZC from a registered buffer (Linux 6.0, not
 * every socket family) one byte sent with it over loopback, once per process.
 */
public final class OwnRingAvailability {
    private static volatile Availability sendZeroCopy;

    private OwnRingAvailability() {
    }

    /** READ_FIXED from a registered file and SEND. */
    public static Availability fixedSend() {
        UringProbe probe = UringProbe.here();
        for (String reason : new String[] {probe.ring(), probe.fixedBuffers(), probe.fixedFiles()}) {
            if (reason != null) {
                return Availability.unavailable(reason);
            }
        }
        return Availability.AVAILABLE;
    }

    /** {@link #fixedSend}, and SEND_ZC with IORING_RECVSEND_FIXED_BUF. */
    public static Availability fixedSendZeroCopy() {
        Availability a = sendZeroCopy;
        if (a == null) {
            a = fixedSend();
            if (a.isAvailable()) {
                a = probeSendZeroCopy();
            }
            sendZeroCopy = a;
        }
        return a;
    }

    private static Availability probeSendZeroCopy() {
        Path file = null;
        try {
            file = Files.createTempFile("xferbench-fixed-send-zc-probe", ".bin");
            Files.write(file, new byte[] {42});
            try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel accepted = listener.accept();
                 FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                 FixedBufferSender sender = new FixedBufferSender(4096, 1, true)) {
                // Unlinked while open: a process killed during the probe leaves no file behind.
                Files.delete(file);
                sender.send(new SourceFile(file, ch, 1), 0, 1, accepted);
                ByteBuffer one = ByteBuffer.allocate(1);
                while (one.hasRemaining() && client.read(one) >= 0) {
                    // one byte, already in the socket
                }
                return one.get(0) == 42 ? Availability.AVAILABLE
                        : Availability.unavailable("SEND_ZC from a registered buffer delivered a wrong byte");
            }
        } catch (IOException | RuntimeException e) {
            return Availability.unavailable("SEND_ZC with IORING_RECVSEND_FIXED_BUF refused here (Linux 6.0+): " + e.getMessage());
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a one-byte temp file; the OS cleans the temp directory
                }
            }
        }
    }
}
