package io.xferbench.twin;

import io.xferbench.core.Sizes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The {@link TwinDrain} child process every sender sends to, and its results in order. Its stdout is read on a
 * thread of its own so the drain never blocks on a full pipe while a sender is being waited for.
 */
final class DrainProcess implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final int port;

    private DrainProcess(Process process) throws IOException, InterruptedException {
        this.process = process;
        startReader();
        String first = lines.poll(60, TimeUnit.SECONDS);
        if (first == null || !first.startsWith("twin-drain listening on ")) {
            throw new IOException("drain did not start: " + first);
        }
        this.port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
    }

    static DrainProcess start(ChildJvm jvm) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jvm.command(TwinDrain.class)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            return new DrainProcess(p);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(p);
            throw e;
        }
    }

    int port() {
        return port;
    }

    /** The MiB/s of the next connection the drain finished (accept to last byte); fails on a short or long body. */
    double nextMibPerSecond(long length) throws IOException, InterruptedException {
        String line = lines.poll(600, TimeUnit.SECONDS);
        if (line == null) {
            throw new IOException("no result from the drain in 600 s");
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

    private void startReader() {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the drain was stopped
            }
        }, "drain-reader");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
