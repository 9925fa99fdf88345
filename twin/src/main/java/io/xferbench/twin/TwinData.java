package io.xferbench.twin;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TempFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The twin harnesses' data directory (scripts/twin, scripts/fio-compare): a harness killed while it generated the test
 * file (GiBs) left its temp file there; the next one removes dead owners' temp files before it generates, and says so.
 */
final class TwinData {
    private TwinData() {
    }

    static DataDirectory open(Path dir) throws IOException {
        DataDirectory data = new DataDirectory(dir);
        for (TempFiles.Removed r : data.removeStaleTempFiles()) {
            System.err.println("twin: removed " + r.path() + " (" + r.bytes() + " bytes), left by a run that was killed");
        }
        return data;
    }
}
