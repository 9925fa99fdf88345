package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.PageCache;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.DontCacheProbe;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What dontcache is for, in whole pages: a download of a file not in the page cache leaves none of its pages there,
 * where channel-direct (the same read without the flag) leaves all of them; and a file that was cached stays cached.
 * A file on a file system that refuses the flag is refused before any byte, with the probe's reason.
 */
class DontCacheDownloadTest {
    private static final long SIZE = 16 * Sizes.MiB + 1;

    @TempDir
    Path dataDir;

    @Test
    void aColdDontCacheDownloadLeavesNoPageCachedWhereABufferedOneLeavesThemAll() throws Exception {
        MethodAssumptions.assumeAvailable("dontcache", DownloadMethods.byId("dontcache").orElseThrow().availability());
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile file = server.data().generated(SIZE);
            MethodAssumptions.assumeAvailable("dontcache on the data directory", DontCacheHere.forFile(file.path()));
            long pages = (SIZE + AlignedBuffers.pageSize() - 1) / AlignedBuffers.pageSize();

            DownloadResult dontcache = c.download(Request.download("dontcache", SIZE, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0));
            assertThat(dontcache.verified()).isTrue();
            assertThat(dontcache.residencyBefore()).as("evicted before").isZero();
            assertThat(PageCache.residency(file.path())).as("after dontcache").isEqualTo(new PageCache.Residency(0, pages));

            DownloadResult buffered = c.download(Request.download("channel-direct", SIZE, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0));
            assertThat(buffered.verified()).isTrue();
            assertThat(buffered.residencyBefore()).as("evicted before").isZero();
            assertThat(PageCache.residency(file.path())).as("after channel-direct").isEqualTo(new PageCache.Residency(pages, pages));

            // Cached pages are read from the cache and left there: dontcache drops only what it brought in.
            DownloadResult warm = c.download(Request.download("dontcache", SIZE, Flags.VERIFY_CRC32C, 0));
            assertThat(warm.verified()).isTrue();
            assertThat(PageCache.residency(file.path())).as("after dontcache of the cached file").isEqualTo(new PageCache.Residency(pages, pages));
        }
    }

    /**
     * tmpfs has no RWF_DONTCACHE on 6.18: a data directory there gets its dontcache requests refused UNAVAILABLE with
     * the probe's reason, before the head, and the connection goes on. Should tmpfs gain the flag, it is served instead.
     */
    @Test
    void aFileSystemWithoutTheFlagIsRefusedWithTheProbesReason() throws Exception {
        MethodAssumptions.assumeAvailable("dontcache", DownloadMethods.byId("dontcache").orElseThrow().availability());
        Path shm = Path.of("/dev/shm");
        MethodAssumptions.assumeAvailable("a tmpfs data directory", Files.isDirectory(shm) && Files.isWritable(shm), "no writable /dev/shm");
        Path onShm = Files.createTempDirectory(shm, "xferbench-dontcache");
        try (XferServer server = XferServer.start(ServerConfig.loopback(onShm));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            String reason = DontCacheProbe.unsupportedReason(server.data().generated(SIZE).path());
            if (reason == null) {
                assertThat(c.download(Request.download("dontcache", SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            } else {
                assertThat(reason).startsWith("file system tmpfs");
                try {
                    c.download(Request.download("dontcache", SIZE, Flags.VERIFY_CRC32C, 0));
                    throw new AssertionError("dontcache served a file on tmpfs, whose probe says: " + reason);
                } catch (RemoteException e) {
                    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                    assertThat(e.reason()).isEqualTo("dontcache: " + reason);
                }
            }
            assertThat(c.download(Request.download("channel-direct", SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        } finally {
            try (Stream<Path> walk = Files.walk(onShm)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
