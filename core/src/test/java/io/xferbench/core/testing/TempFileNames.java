package io.xferbench.core.testing;

import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The server's temp files in a data directory: in it (generations, records) and in its uploads' temp directory.
 * Listed, not walked: a file the server removes meanwhile is simply not there (a walk would fail on it).
 */
public final class TempFileNames {
    private TempFileNames() {
    }

    /** Names of the temp files in {@code dataDir} and {@code dataDir/.uploads}; none where a directory is missing. */
    public static List<String> in(Path dataDir) {
        List<String> names = new ArrayList<>();
        for (Path dir : List.of(dataDir, dataDir.resolve(DataDirectory.UPLOADS))) {
            try (Stream<Path> files = Files.list(dir)) {
                files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".tmp-")).forEach(names::add);
            } catch (NoSuchFileException e) {
                // Nothing uploaded yet (or no data directory): no temp files there.
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return names;
    }
}
