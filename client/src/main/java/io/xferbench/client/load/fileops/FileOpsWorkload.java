package io.xferbench.client.load.fileops;

import io.xferbench.client.load.engine.ConnectionScript;
import io.xferbench.client.load.engine.LoadStep;
import io.xferbench.client.load.engine.Workload;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.ExchangeOutcome;
import io.xferbench.client.load.exchange.NamedExchange;
import java.util.List;

/**
 * Uploads, deletes and the mix, over the native protocol or HTTP (PUT, DELETE). Each connection works on one file of its own,
 * {@code xferbench-load-<run>-<connection>.dat}, so runs never race each other's names and the disk holds at most one
 * file per connection:
 * <ul>
 *   <li>{@code upload}: uploads it again and again (the first creates it, the rest replace it by rename);</li>
 *   <li>{@code delete}: uploads it (a setup request, sent but not measured) and deletes it, in turn;</li>
 *   <li>{@code mix}: {@link #MIX} over and over: 6 downloads, 2 exists, 1 upload, 1 delete in every 10 requests of a
 *       connection; downloads and exists go to the generated file, the delete removes the file the upload 4 requests
 *       earlier placed (when that upload failed, the delete's turn uploads instead).</li>
 * </ul>
 */
public final class FileOpsWorkload implements Workload {
    /** What a run does. */
    public enum Kind { UPLOAD, DELETE, MIX }

    static final List<String> MIX = List.of("download", "upload", "exist", "download", "download", "delete", "download",
            "exist", "download", "download");

    private final Kind kind;
    private final String run;
    private final NamedExchange upload;
    private final NamedExchange delete;
    private final Exchange download;
    private final Exchange exist;
    private final CreatedFiles created;

    /**
     * @param run      names this run's files apart from other runs' (and rows')
     * @param download the generated file's download (mix only)
     * @param exist    the generated file's STAT (mix only)
     */
    public FileOpsWorkload(Kind kind, String run, NamedExchange upload, NamedExchange delete, Exchange download,
                    Exchange exist, CreatedFiles created) {
        this.kind = kind;
        this.run = run;
        this.upload = upload;
        this.delete = delete;
        this.download = download;
        this.exist = exist;
        this.created = created;
    }

    @Override
    public ConnectionScript script(int connectionIndex) {
        return new Script(CreatedFiles.PREFIX + run + "-" + connectionIndex + ".dat");
    }

    private final class Script implements ConnectionScript {
        private final String name;
        /** The file is on the server, as far as this connection knows. */
        private boolean placed;
        private int slot;

        Script(String name) {
            this.name = name;
        }

        @Override
        public LoadStep next() {
            if (created.stopped()) {
                return null;
            }
            return switch (kind) {
                case UPLOAD -> upload(false);
                case DELETE -> placed ? delete() : upload(true);
                case MIX -> {
                    String op = MIX.get(slot);
                    slot = (slot + 1) % MIX.size();
                    yield switch (op) {
                        case "download" -> LoadStep.of(op, download);
                        case "exist" -> LoadStep.of(op, exist);
                        case "upload" -> upload(false);
                        default -> placed ? delete() : upload(false);
                    };
                }
            };
        }

        private LoadStep upload(boolean setup) {
            created.sent(name);
            return new LoadStep("upload", name, upload.request(name), upload.newParser(), setup);
        }

        private LoadStep delete() {
            return new LoadStep("delete", name, delete.request(name), delete.newParser(), false);
        }

        @Override
        public void completed(LoadStep step, ExchangeOutcome outcome) {
            switch (step.op()) {
                case "upload" -> {
                    placed = outcome.ok();
                    created.uploaded(name, outcome);
                }
                case "delete" -> {
                    // After an I/O failure the file may still be there: it stays on the list for the clean-up.
                    if (outcome.ok() || outcome.absent()) {
                        created.gone(name);
                    } else {
                        created.uploaded(name, false);
                    }
                    placed = false;
                }
                default -> {
                }
            }
        }
    }

    /** Names one row's files apart from every other row's and run's: this process and the row. */
    public static String runId(int connections) {
        return ProcessHandle.current().pid() + "-" + Long.toString(System.nanoTime() & 0xffffffL, 36) + "-c" + connections;
    }
}
