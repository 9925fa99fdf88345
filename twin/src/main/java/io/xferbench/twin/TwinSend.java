package io.xferbench.twin;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.nativeio.ResourceUsage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The Java side of a twin pair: sends a file to {@link TwinDrain} with core's {@link FileSender} for a method
 * id, the same classes the server uses, one new sender per connection as the server makes them. Same wire as
 * {@code native/c/xfer_twin.c}: 8-byte big-endian length, then the body, then close.
 * <pre>
 * TwinSend METHOD FILE HOST PORT [bufsize] [--length N] [--warmup N] [--rounds N] [--io-uring-depth N] [--on-stdin]
 * </pre>
 * Warm-up sends run first and are reported as {@code twin-send warmup ...}; then each measured send prints
 * {@code twin-send method=M bytes=N seconds=S mibs=X user=U sys=Y vcsw=V ivcsw=I} (time from connect to close,
 * sender side; CPU seconds and context switches of the whole process over the same span, getrusage
 * RUSAGE_SELF, so Netty event-loop and io_uring io-wq worker threads are included). With
 * {@code --on-stdin} each measured send waits for a line {@code send} on stdin ({@code quit} or EOF ends), after
 * printing {@code twin-send ready} once, so a driver can interleave this JVM's sends with another sender's.
 */
@Command(name = "twin-send", mixinStandardHelpOptions = true,
        description = "The Java side of a twin pair: sends FILE to a twin-drain with a download method's sender.")
public final class TwinSend implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "METHOD", converter = MethodId.class, description = "A download method id.")
    SenderMethod method;
    @Parameters(index = "1", paramLabel = "FILE")
    Path path;
    @Parameters(index = "2", paramLabel = "HOST")
    String host;
    @Parameters(index = "3", paramLabel = "PORT", converter = Converters.Port.class)
    int port;
    @Parameters(index = "4", paramLabel = "bufsize", arity = "0..1", converter = Converters.BufferSizeOrDefault.class,
            description = "The method's buffer; 0 or absent: the default.")
    int buffer; // 0: TransferOptions' default
    @Option(names = "--length", converter = Converters.Size.class, description = "Bytes to send (default: the whole file).")
    Long length;
    @Option(names = "--warmup", defaultValue = "0", converter = Converters.NonNegativeInt.class)
    int warmup;
    @Option(names = "--rounds", defaultValue = "1", converter = Converters.PositiveInt.class)
    int rounds;
    @Option(names = "--io-uring-depth", defaultValue = "" + UringDepth.DEFAULT, converter = Converters.PositiveInt.class,
            description = "As the server's option (at most " + UringDepth.MAX + ").")
    int uringDepth;
    @Option(names = "--on-stdin", description = "Each measured send waits for a line 'send' on stdin, after 'twin-send ready'.")
    boolean onStdin;

    /** A download method id, checked while the command line is parsed. */
    static final class MethodId implements CommandLine.ITypeConverter<SenderMethod> {
        @Override
        public SenderMethod convert(String id) {
            return DownloadMethods.byId(id).orElseThrow(
                    () -> new CommandLine.TypeConversionException("unknown method " + id + "; known: " + DownloadMethods.ids()));
        }
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new TwinSend(), args)); // Netty event loops are daemon threads, but do not wait for their shutdown
    }

    @Override
    public Integer call() throws Exception {
        UringDepth.set(uringDepth); // as the server's option; out of range: a usage error
        if (!method.availability().isAvailable()) {
            System.err.println("twin-send: " + method.id() + " unavailable: " + method.availability().unavailableReason());
            return 3;
        }
        InetSocketAddress peer = new InetSocketAddress(host, port);
        TransferOptions options = new TransferOptions(buffer, false);
        long size = Files.size(path);
        long bytes = length == null ? size : length;
        if (bytes > size) {
            throw new IllegalArgumentException("--length " + bytes + " > file size " + size);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            SourceFile file = new SourceFile(path, channel, size);
            for (int i = 0; i < warmup; i++) {
                report("warmup", method, bytes, sendOnce(method, options, file, bytes, peer));
            }
            if (onStdin) {
                System.out.println("twin-send ready");
                System.out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
                String line;
                while ((line = in.readLine()) != null && line.strip().equals("send")) {
                    report("", method, bytes, sendOnce(method, options, file, bytes, peer));
                }
            } else {
                for (int i = 0; i < rounds; i++) {
                    report("", method, bytes, sendOnce(method, options, file, bytes, peer));
                }
            }
        }
        return 0;
    }

    /** Wall time and process CPU of one send. */
    record Sent(double seconds, ResourceUsage usage) {
    }

    /** One connection: new sender, connect, header, body, close; measured from connect to close. */
    static Sent sendOnce(SenderMethod method, TransferOptions options, SourceFile file, long length, InetSocketAddress peer)
            throws IOException {
        FileSender sender = method.newSender(options);
        try {
            sender.checkSupported(file, 0, length);
            ResourceUsage before = ResourceUsage.process();
            long t0 = System.nanoTime();
            try (SocketChannel socket = SocketChannel.open()) {
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                socket.connect(peer);
                ByteBuffer header = ByteBuffer.allocate(Long.BYTES).putLong(0, length);
                while (header.hasRemaining()) {
                    socket.write(header);
                }
                sender.send(file, 0, length, socket);
                sender.close(); // a Netty sender holds a dup of the socket's fd: the peer sees EOF only when both close
            }
            long t1 = System.nanoTime();
            return new Sent((t1 - t0) / 1e9, ResourceUsage.process().minus(before));
        } finally {
            sender.close();
        }
    }

    private static void report(String tag, SenderMethod method, long bytes, Sent sent) {
        ResourceUsage u = sent.usage();
        System.out.printf(Locale.ROOT, "twin-send %smethod=%s bytes=%d seconds=%.6f mibs=%.1f user=%.6f sys=%.6f vcsw=%d ivcsw=%d%n",
                tag.isEmpty() ? "" : tag + " ", method.id(), bytes, sent.seconds(), bytes / 1048576.0 / sent.seconds(),
                u.userSeconds(), u.systemSeconds(), u.voluntarySwitches(), u.involuntarySwitches());
        System.out.flush();
    }
}
