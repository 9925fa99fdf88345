package io.xferbench.twin;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.nativeio.PageCache;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Prepares a generated test file for the scripts: {@code TwinFile DIR SIZE [--warm|--evict]} creates
 * {@code DIR/xferbench-<bytes>.dat} with {@link DataDirectory} if missing, flushes it (fdatasync, so no O_DIRECT
 * read starts with writeback), optionally warms or evicts it, and prints {@code PATH BYTES RESIDENT_PERMILLE}.
 */
@Command(name = "twin-file", mixinStandardHelpOptions = true, description = "Prepare a generated test file.")
public final class TwinFile implements Callable<Integer> {
    @Parameters(index = "0", description = "Data directory.")
    Path dir;

    @Parameters(index = "1", converter = Converters.PositiveSize.class, description = "File size, e.g. 1GiB.")
    long size;

    @ArgGroup(exclusive = true)
    Cache cache;

    static final class Cache {
        @Option(names = "--warm", required = true, description = "Read it into the page cache.")
        boolean warm;

        @Option(names = "--evict", required = true, description = "Drop it from the page cache.")
        boolean evict;
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new TwinFile(), args));
    }

    @Override
    public Integer call() throws Exception {
        TestFile file = TwinData.open(dir).generated(size);
        try (FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
            ch.force(false);
        }
        if (cache != null && cache.warm) {
            PageCache.warm(file.path());
        } else if (cache != null) {
            PageCache.evict(file.path());
        }
        System.out.println(file.path() + " " + file.size() + " " + PageCache.residency(file.path()).permille());
        return 0;
    }
}
