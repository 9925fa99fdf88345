package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.nativeio.PageCache;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Prepares a generated test file for the scripts: {@code TwinFile DIR SIZE [--warm|--evict]} creates
 * {@code DIR/xferbench-<bytes>.dat} with {@link DataDirectory} if missing, flushes it (fdatasync, so no O_DIRECT
 * read starts with writeback), optionally warms or evicts it, and prints {@code PATH BYTES RESIDENT_PERMILLE}.
 */
public final class TwinFile {
    private TwinFile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[2].matches("--warm|--evict"))) {
            System.err.println("usage: TwinFile DIR SIZE [--warm|--evict]");
            System.exit(2);
        }
        TestFile file = new DataDirectory(Path.of(args[0])).generated(Sizes.parse(args[1]));
        try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
            ch.force(false);
        }
        if (args.length == 3) {
            if (args[2].equals("--warm")) {
                PageCache.warm(file.path());
            } else {
                PageCache.evict(file.path());
            }
        }
        System.out.println(file.path() + " " + file.size() + " " + PageCache.residency(file.path()).permille());
    }
}
