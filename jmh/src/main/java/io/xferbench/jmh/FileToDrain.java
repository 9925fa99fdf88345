package io.xferbench.jmh;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.jmh.drain.DrainServerProcess;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * The fixture of the benchmarks whose op is "send one whole file to the drain": the generated test file open for
 * reading, the drain process connected over loopback, and the running count of bytes sent, so that an op returns
 * only when the drain has every byte of it.
 */
final class FileToDrain implements AutoCloseable {
    private final TestFile file;
    private final FileChannel channel;
    private final SourceFile source;
    private final DrainServerProcess drain;
    private long sent;

    private FileToDrain(TestFile file, FileChannel channel, DrainServerProcess drain) {
        this.file = file;
        this.channel = channel;
        this.source = new SourceFile(file.path(), channel, file.size());
        this.drain = drain;
    }

    /** Generates the file of {@code size} bytes if missing, opens it and starts a drain for bodies of that size. */
    static FileToDrain open(long size) throws IOException {
        TestFile file = BenchData.open().generated(size);
        FileChannel channel = FileChannel.open(file.path(), StandardOpenOption.READ);
        try {
            return new FileToDrain(file, channel, DrainServerProcess.start(size));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    SourceFile source() {
        return source;
    }

    /** Sends the whole file with {@code sender} and waits (spinning, no syscall) until the drain has received it. */
    void sendOne(FileSender sender) throws IOException {
        sender.send(source, 0, file.size(), drain.socket());
        sent += file.size();
        drain.awaitReceived(sent);
    }

    /** Fails the trial unless the first body the drain received is the file (by CRC32C). */
    void requireFirstReceived(String what) {
        BenchMethods.requireReceived(what, drain.firstCrc32c(), file.crc32c());
    }

    /** The connection and the drain (which sees EOF and exits), then the file. Close the sender first. */
    @Override
    public void close() throws IOException {
        Closer.closeAll(drain, channel);
    }
}
