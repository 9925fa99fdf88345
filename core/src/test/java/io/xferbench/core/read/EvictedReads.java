package io.xferbench.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.PageCache;

/** The page-cache tests of the RWF_DONTCACHE engines: what an engine's reads of an evicted file leave cached. */
final class EvictedReads {
    private EvictedReads() {
    }

    /**
     * Pages of {@code spec}'s file cached after {@code engine} read it, evicted first, its bytes checked against
     * ContentGenerator({@code seed}); skipped with the reason where the engine cannot run.
     */
    static PageCache.Residency residentAfter(ReadEngine engine, ReadSpec spec, long seed) throws Exception {
        MethodAssumptions.assumeAvailable(engine.name(), new Availability(engine.unsupported(spec)));
        PageCache.evict(spec.file());
        assertThat(engine.read(spec, LatencySink.NONE).digest()).as(engine.name())
                .isEqualTo(ExpectedContent.digest(new ContentGenerator(seed), spec));
        return PageCache.residency(spec.file());
    }
}
