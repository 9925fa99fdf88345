package io.xferbench.client.load.fileops;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.Workload;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.ExchangeOutcome;
import io.xferbench.client.load.exchange.HttpDeleteExchange;
import io.xferbench.client.load.exchange.HttpPutExchange;
import io.xferbench.client.load.exchange.NativeDeleteExchange;
import io.xferbench.client.load.exchange.NativeUploadExchange;
import io.xferbench.core.net.NoAnswerException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One row of uploads, deletes or the mix, over the native protocol or HTTP, with what belongs around it: over HTTP a
 * probe PUT and DELETE first (a server that refuses them gives a skipped row with its answer, not a row of errors),
 * and after the run every file the run's uploads placed read back and checked, then everything it left deleted.
 */
public final class FileOpsRun {
    /**
     * @param result   the run's figures, or null when skipped
     * @param readBack what reading the uploads back found, or null over the native protocol (whose upload answer
     *                 already carries the stored length and CRC32C the server checked)
     * @param skipped  why the row did not run, or null
     */
    public record Outcome(LoadResult result, ReadBack readBack, String skipped) {
    }

    /** How to reach the server: the native protocol (with a token and the server's upload method), or HTTP. */
    public record Wire(boolean http, String token, String uploadMethod) {
        public static Wire overHttp() {
            return new Wire(true, "", null);
        }

        public static Wire overNative(String token, String uploadMethod) {
            return new Wire(false, token, uploadMethod);
        }
    }

    private FileOpsRun() {
    }

    /**
     * @param run      names this row's files apart from every other row's and run's
     * @param download the generated file's download, same protocol (mix only)
     * @param exist    the generated file's STAT or HEAD (mix only)
     */
    public static Outcome run(LoadPlan plan, Wire wire, FileOpsWorkload.Kind kind, long size, int crc, String run,
                       Exchange download, Exchange exist, LoadEngine.WindowObserver observer)
            throws IOException, InterruptedException {
        InetSocketAddress server = plan.target();
        CreatedFiles created = new CreatedFiles();
        if (!wire.http()) {
            Workload workload = new FileOpsWorkload(kind, run, new NativeUploadExchange(wire.uploadMethod(), size, wire.token()),
                    new NativeDeleteExchange(wire.token()), download, exist, created);
            try (StoppedRunCleanup onStop = new StoppedRunCleanup(created,
                    names -> RemoteDeletes.delete(server, wire.token(), names, plan.answerTimeout()))) {
                try {
                    return new Outcome(LoadEngine.run(plan, workload, observer), null, null);
                } finally {
                    // The run's files go with it (on SIGTERM or Ctrl-C, the hook's); what SIGKILL leaves, 'client load clean' removes.
                    RemoteDeletes.delete(server, wire.token(), created.remaining(), plan.answerTimeout());
                }
            }
        }
        String host = server.getHostString() + ":" + server.getPort();
        HttpPutExchange put = new HttpPutExchange(host, size);
        HttpDeleteExchange delete = new HttpDeleteExchange(host);
        try (HttpFileClient client = new HttpFileClient(server, plan.answerTimeout())) {
            String refused = probe(client, put, delete, CreatedFiles.PREFIX + run + "-probe.dat");
            if (refused != null) {
                return new Outcome(null, null, refused);
            }
            try (StoppedRunCleanup onStop = new StoppedRunCleanup(created, names -> {
                try (HttpFileClient own = new HttpFileClient(server, plan.answerTimeout())) { // the run's client may be mid-request
                    own.deleteAll(delete, names);
                }
            })) {
                try {
                    LoadResult result = LoadEngine.run(plan, new FileOpsWorkload(kind, run, put, delete, download, exist, created), observer);
                    ReadBack readBack = client.readBack(host, created.landed(), size, crc).with(created.uploads());
                    return new Outcome(result, readBack, null);
                } finally {
                    client.deleteAll(delete, created.remaining());
                }
            }
        }
    }

    /** @return why the server cannot take the row's requests, or null when it took a PUT and a DELETE */
    private static String probe(HttpFileClient client, HttpPutExchange put, HttpDeleteExchange delete, String name)
            throws NoAnswerException {
        ExchangeOutcome stored;
        try {
            stored = client.send(put.request(name), put.newParser());
        } catch (NoAnswerException e) {
            throw e.waitingFor("the probe PUT before the row");
        }
        if (!stored.ok()) {
            client.deleteAll(delete, List.of(name));
            return stored.error().equals("crc mismatch") ? "the server's answer to a probe PUT names another CRC32C than the body's"
                    : "the server refused a probe PUT (" + stored.error() + ")";
        }
        ExchangeOutcome deleted;
        try {
            deleted = client.send(delete.request(name), delete.newParser());
        } catch (NoAnswerException e) {
            throw e.waitingFor("the probe DELETE before the row");
        }
        return deleted.ok() ? null : "the server refused a probe DELETE (" + deleted.error() + ")";
    }
}
