package io.xferbench.core.uring;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.netty.NettyTransport;
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
 * Whether this kernel takes IORING_OP_SENDMSG_ZC (Linux 6.1+, and not every socket family): asked by sending one byte
 * over loopback with it, once per process, rather than guessed from the kernel version.
 */
public final class SendZeroCopyProbe {
    private static volatile Availability result;

    private SendZeroCopyProbe() {
    }

    public static Availability availability() {
        Availability a = result;
        if (a == null) {
            a = NettyTransport.IO_URING.availability();
            if (a.isAvailable()) {
                a = probe();
            }
            result = a;
        }
        return a;
    }

    private static Availability probe() {
        Path file = null;
        try {
            file = Files.createTempFile("xferbench-send-zc-probe", ".bin");
            Files.write(file, new byte[] {42});
            try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                 SocketChannel accepted = listener.accept();
                 FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                 UringFileSender sender = new UringFileSender(4096, false, true)) {
                // Unlinked while open: a process killed during the probe leaves no file behind.
                Files.delete(file);
                sender.send(new SourceFile(file, ch, 1), 0, 1, accepted);
                ByteBuffer one = ByteBuffer.allocate(1);
                while (one.hasRemaining() && client.read(one) >= 0) {
                    // one byte, already in the socket
                }
                return one.get(0) == 42 ? Availability.AVAILABLE
                        : Availability.unavailable("IORING_OP_SENDMSG_ZC probe delivered a wrong byte");
            }
        } catch (IOException | RuntimeException e) {
            return Availability.unavailable("IORING_OP_SENDMSG_ZC refused by this kernel: " + e.getMessage());
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
