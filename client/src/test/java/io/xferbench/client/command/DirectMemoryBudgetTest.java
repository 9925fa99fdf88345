package io.xferbench.client.command;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import org.junit.jupiter.api.Test;

/** A round's connections against the JVM's direct memory: refused before the run, with what to change. */
class DirectMemoryBudgetTest {
    @Test
    void connectionsBeyondTheLimitAreAUsageErrorNamingTheNeed() {
        assertThatThrownBy(() -> DirectMemoryBudget.require(1024, Sizes.MiB, 512 * Sizes.MiB))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--concurrency 1024 needs about 1GiB of direct memory (1MiB per connection), more than this JVM's "
                        + "512MiB: fewer connections, a smaller --buffer, or a larger -XX:MaxDirectMemorySize");
        assertThatCode(() -> DirectMemoryBudget.require(512, Sizes.MiB, 512 * Sizes.MiB)).doesNotThrowAnyException();
    }
}
