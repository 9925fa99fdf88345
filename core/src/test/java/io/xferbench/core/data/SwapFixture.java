package io.xferbench.core.data;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory and a directory outside it, for the tests that swap what is at a name between a check and the act
 * that follows it: what the act must never reach is out there.
 */
abstract class SwapFixture {
    @TempDir
    Path tmp;
    /** The data directory's real path. */
    Path root;
    /** A directory beside it, where a symlink swapped in leads. */
    Path outside;
    DataDirectory data;

    @BeforeEach
    void openDataDirectory() throws Exception {
        root = Files.createDirectories(tmp.resolve("data")).toRealPath();
        outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        data = new DataDirectory(root);
    }

    @AfterEach
    void closeDataDirectory() throws Exception {
        data.close();
    }
}
