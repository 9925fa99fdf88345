package io.xferbench.twin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@link TwinSend} JVM for one method, driven over its stdin and stdout: its warm-up sends run first, then one
 * measured send per {@link #send()}, all in this JVM, as a long-running server sends.
 */
final class JavaSenderProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;

    private JavaSenderProcess(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /** {@link TwinSend}'s command line (its picocli spec reads it; TwinChildrenUsageTest parses it). */
    static String[] arguments(String method, Path file, int port, int buffer, long length, int warmup, int uringDepth) {
        return new String[] {method, file.toString(), "127.0.0.1", Integer.toString(port), Integer.toString(buffer),
            "--length", Long.toString(length), "--warmup", Integer.toString(warmup), "--io-uring-depth", Integer.toString(uringDepth),
            "--on-stdin"};
    }

    /** Starts the sender; it begins its {@code warmup} sends to the drain at once. */
    static JavaSenderProcess start(ChildJvm jvm, String method, Path file, int port, int buffer, long length, int warmup,
                                   int uringDepth) throws IOException {
        List<String> cmd = jvm.command(TwinSend.class, arguments(method, file, port, buffer, length, warmup, uringDepth));
        return new JavaSenderProcess(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    void awaitWarmupSend() throws IOException {
        expect("twin-send warmup");
    }

    /** After the warm-up sends: the sender waits for {@link #send()}. */
    void awaitReady() throws IOException {
        expect("twin-send ready");
    }

    /** One measured send; its result line's fields. */
    Map<String, String> send() throws IOException {
        in.write("send\n");
        in.flush();
        return ResultFields.of(expect("twin-send method="));
    }

    private String expect(String prefix) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(prefix)) {
            throw new IOException("TwinSend: expected '" + prefix + "...', got: " + line);
        }
        return line;
    }

    /** Asks the sender to quit (stdin EOF does too, should the write fail) and waits for it; a hung one is killed. */
    @Override
    public void close() throws IOException, InterruptedException {
        try (out; in) {
            in.write("quit\n");
            in.flush();
        } catch (IOException ignored) {
            // it exited already
        } finally {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
