package io.xferbench.twin;

import io.xferbench.core.process.ChildCommand;
import io.xferbench.nativeio.JvmFlags;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One {@link TwinSend} JVM for one method, driven over its stdin and stdout: its warm-up sends run first, then one
 * measured send per {@link #send()}, all in this JVM, as a long-running server sends.
 */
final class JavaSenderProcess implements AutoCloseable {
    private final ChildConversation child;

    private JavaSenderProcess(ChildConversation child) {
        this.child = child;
    }

    /** {@link TwinSend}'s command line (its picocli spec reads it; TwinChildrenUsageTest parses it). */
    static String[] arguments(String method, Path file, int port, int buffer, long length, int warmup, int uringDepth) {
        return new String[] {method, file.toString(), "127.0.0.1", Integer.toString(port), Integer.toString(buffer),
            "--length", Long.toString(length), "--warmup", Integer.toString(warmup), "--io-uring-depth", Integer.toString(uringDepth),
            "--on-stdin"};
    }

    /** Starts the sender; it begins its {@code warmup} sends to the drain at once. */
    static JavaSenderProcess start(ChildCommand jvm, String method, Path file, int port, int buffer, long length, int warmup,
                                   int uringDepth) throws IOException {
        return new JavaSenderProcess(ChildConversation.start("TwinSend",
                jvm.java(JvmFlags.required(), TwinSend.class.getName(),
                        List.of(arguments(method, file, port, buffer, length, warmup, uringDepth)))));
    }

    void awaitWarmupSend() throws IOException {
        child.expect("twin-send warmup");
    }

    /** After the warm-up sends: the sender waits for {@link #send()}. */
    void awaitReady() throws IOException {
        child.expect("twin-send ready");
    }

    /** One measured send; its result line's fields. */
    Map<String, String> send() throws IOException {
        child.say("send");
        return ResultFields.of(child.expect("twin-send method="));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        child.close();
    }
}
