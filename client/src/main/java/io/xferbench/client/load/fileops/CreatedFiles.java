package io.xferbench.client.load.fileops;

import io.xferbench.client.load.exchange.ExchangeOutcome;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The names a load run may have left on the server: a name is added when its upload is sent (it may land even when
 * the answer is lost) and removed once a DELETE answered OK or NOT_FOUND. What is left is removed after the run.
 * Apart from that, the names whose last request was a verified upload: those files must be there, with the run's
 * content, when the run ends (an HTTP run reads them back); and how the uploads that succeeded were checked.
 */
public final class CreatedFiles {
    /** Every file a load run creates starts with this, so {@code client load clean} can find a killed run's files. */
    public static final String PREFIX = "xferbench-load-";

    private final Set<String> names = ConcurrentHashMap.newKeySet();
    private final Set<String> landed = ConcurrentHashMap.newKeySet();
    /** Uploads sent and not answered yet: each may still land, so a clean-up waits for them before it deletes. */
    private final Set<String> uploading = ConcurrentHashMap.newKeySet();
    /** Names a verified upload placed at least once, deleted since or not. */
    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private final LongAdder verifiedUploads = new LongAdder();
    private final LongAdder statusOnlyUploads = new LongAdder();
    private volatile boolean stopped;

    void sent(String name) {
        names.add(name);
        uploading.add(name);
    }

    /** An upload's answer: verified, the file is the run's; failed, what is there is unknown (still cleaned up). */
    void uploaded(String name, boolean verified) {
        uploading.remove(name);
        if (verified) {
            landed.add(name);
        } else {
            landed.remove(name);
        }
    }

    /** An upload's answer, counted: how it was verified, if it was. */
    void uploaded(String name, ExchangeOutcome outcome) {
        uploaded(name, outcome.ok());
        if (outcome.ok()) {
            written.add(name);
            (outcome.statusOnly() ? statusOnlyUploads : verifiedUploads).increment();
        }
    }

    /** What the run's verified uploads were checked by, before any read-back. */
    ReadBack.Uploads uploads() {
        return new ReadBack.Uploads(written.size(), verifiedUploads.sum() + statusOnlyUploads.sum(), statusOnlyUploads.sum());
    }

    void gone(String name) {
        landed.remove(name);
        names.remove(name);
    }

    /** The run is being stopped (SIGTERM, Ctrl-C): its connections send nothing more. */
    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    /** @return whether every upload in flight was answered before {@code deadlineNanos} */
    boolean awaitUploads(long deadlineNanos) throws InterruptedException {
        while (!uploading.isEmpty()) {
            if (System.nanoTime() >= deadlineNanos) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    List<String> remaining() {
        return List.copyOf(names);
    }

    /** Names whose last answer was a verified upload. */
    List<String> landed() {
        return List.copyOf(landed);
    }
}
