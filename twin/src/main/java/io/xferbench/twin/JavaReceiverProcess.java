package io.xferbench.twin;

import io.xferbench.core.process.ChildCommand;
import io.xferbench.nativeio.JvmFlags;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One {@link TwinReceive} JVM for one upload method, driven over its stdin and stdout: one receive per
 * {@link #arm()} and {@link #result()}, all in this JVM, as a long-running server receives.
 */
final class JavaReceiverProcess implements ReceiverSide, AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final ChildConversation child;

    private JavaReceiverProcess(ChildConversation child) {
        this.child = child;
    }

    /** {@link TwinReceive}'s command line (its picocli spec reads it; TwinChildrenUsageTest parses it). */
    static String[] arguments(String method, Path target, int buffer, int uringDepth) {
        return new String[] {method, target.toString(), Integer.toString(buffer), "--io-uring-depth", Integer.toString(uringDepth)};
    }

    /** Starts the receiver and waits until it listens. */
    static JavaReceiverProcess start(ChildCommand jvm, String method, Path target, int buffer, int uringDepth) throws IOException {
        ChildConversation child = ChildConversation.start("TwinReceive",
                jvm.java(JvmFlags.required(), TwinReceive.class.getName(),
                        List.of(arguments(method, target, buffer, uringDepth))));
        try {
            child.awaitListening(START_TIMEOUT);
        } catch (IOException e) {
            child.kill();
            throw e;
        }
        return new JavaReceiverProcess(child);
    }

    @Override
    public int arm() throws IOException {
        child.say("receive");
        return Integer.parseInt(ResultFields.of(child.expect("twin-receive accepting port=")).get("port"));
    }

    @Override
    public Map<String, String> result() throws IOException {
        return ResultFields.of(child.expect("twin-receive method="));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        child.close();
    }

    /** For the harness's shutdown hook: a kill of the harness must not leave this JVM behind. */
    void kill() {
        child.kill();
    }
}
