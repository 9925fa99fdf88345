package io.xferbench.core.testing;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** For tests of files rewritten through a shared mapping. */
public final class MappedStores {
    private MappedStores() {
    }

    /**
     * Skips unless a store through a shared mapping to a page written back since can be seen in the file's ctime on
     * {@code dir}'s file system: writeback must write-protect the page (tmpfs does not) and the fault's new times must
     * be fine-grained after a statx (multigrain timestamps, Linux 6.13+), or a store within the recorded tick is missed.
     */
    public static void assumeStoresAfterWritebackMoveCtime(Path dir) throws IOException {
        MethodAssumptions.assumeAvailable("write-protecting writeback", !Files.getFileStore(dir).type().equals("tmpfs"),
                "tmpfs does not write-protect shared pages");
        String[] v = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(v[0]);
        int minor = Integer.parseInt(v[1]);
        MethodAssumptions.assumeAvailable("multigrain timestamps", major > 6 || (major == 6 && minor >= 13),
                "no multigrain timestamps before Linux 6.13");
    }
}
