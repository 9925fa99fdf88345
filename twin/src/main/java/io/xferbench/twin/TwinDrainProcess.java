package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.process.ChildCommand;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.core.process.ListeningLine;
import io.xferbench.nativeio.JvmFlags;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * The {@link TwinDrain} child process every sender sends to, and its results in order. Its stdout is read on a
 * thread of its own ({@link ChildProcess}) so the drain never blocks on a full pipe while a sender is being waited for.
 */
final class TwinDrainProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private final ChildProcess child;
    private final int port;

    private TwinDrainProcess(ChildProcess child) throws IOException {
        this.child = child;
        this.port = ListeningLine.await(child, START_TIMEOUT).getPort();
    }

    static TwinDrainProcess start(ChildCommand jvm) throws IOException, InterruptedException {
        ChildProcess child = ChildProcess.start("TwinDrain", jvm.java(JvmFlags.required(), TwinDrain.class.getName(), List.of()));
        try {
            return new TwinDrainProcess(child);
        } catch (IOException | RuntimeException e) {
            child.terminate(STOP_GRACE);
            throw e;
        }
    }

    int port() {
        return port;
    }

    /** The MiB/s of the next connection the drain finished (accept to last byte); fails on a short or long body. */
    double nextMibPerSecond(long length) throws IOException {
        String line;
        try {
            line = child.readLine(Duration.ofSeconds(600));
        } catch (TimeoutException e) {
            throw new IOException("no result from the drain in 600 s");
        }
        if (line == null) {
            throw new IOException("the drain exited");
        }
        Map<String, String> f = ResultFields.of(line);
        if (f.containsKey("error") || !f.containsKey("bytes")) {
            throw new IOException("drain: " + line);
        }
        if (Long.parseLong(f.get("bytes")) != length) {
            throw new IOException("drain received " + f.get("bytes") + " bytes, expected " + length);
        }
        return Double.parseDouble(f.get("bytes")) / Sizes.MiB / Double.parseDouble(f.get("seconds"));
    }

    @Override
    public void close() throws InterruptedException {
        child.terminate(STOP_GRACE);
    }
}
