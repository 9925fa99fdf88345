package io.xferbench.server.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.TransferOptions;
import io.xferbench.server.limits.BufferBudget;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PerConnectionTest {
    private static final long MiB = 1 << 20;

    /** Counts what it closes, like a sender that frees its buffer. */
    static final class Instance implements AutoCloseable {
        static final AtomicInteger CLOSED = new AtomicInteger();

        @Override
        public void close() {
            CLOSED.incrementAndGet();
        }
    }

    @Test
    void manyBufferSizesOnOneConnectionKeepOnlyAFewInstancesAndTheirBuffers() throws Exception {
        BufferBudget budget = new BufferBudget(1L << 30);
        int before = Instance.CLOSED.get();
        try (PerConnection<Instance> c = new PerConnection<>(budget)) {
            for (int i = 0; i < 93; i++) {
                TransferOptions o = new TransferOptions((int) (64 * MiB) - i * 4096, false);
                c.get("channel-direct", o, o.bufferSize(), Instance::new);
                assertThat(c.size()).isLessThanOrEqualTo(PerConnection.MAX_INSTANCES);
                assertThat(budget.reserved()).isLessThanOrEqualTo(PerConnection.MAX_INSTANCES * 64 * MiB);
            }
            assertThat(Instance.CLOSED.get() - before).isEqualTo(93 - PerConnection.MAX_INSTANCES);
        }
        assertThat(budget.reserved()).isZero();
        assertThat(Instance.CLOSED.get() - before).isEqualTo(93);
    }

    @Test
    void theServersBudgetIsSharedAndAConnectionFirstGivesBackItsOwnIdleBuffers() throws Exception {
        BufferBudget budget = new BufferBudget(100 * MiB);
        try (PerConnection<Instance> a = new PerConnection<>(budget); PerConnection<Instance> b = new PerConnection<>(budget)) {
            a.get("m", new TransferOptions((int) (60 * MiB), false), 60 * MiB, Instance::new);
            assertThatThrownBy(() -> b.get("m", new TransferOptions((int) (60 * MiB), false), 60 * MiB, Instance::new))
                    .isInstanceOf(PerConnection.BudgetExceeded.class).hasMessageContaining("--max-buffer-memory");
            assertThat(budget.reserved()).isEqualTo(60 * MiB);
            // a asks for another large buffer: its own idle one is closed to make room.
            a.get("m", new TransferOptions((int) (50 * MiB), false), 50 * MiB, Instance::new);
            assertThat(a.size()).isEqualTo(1);
            assertThat(budget.reserved()).isEqualTo(50 * MiB);
            a.close();
            b.get("m", new TransferOptions((int) (60 * MiB), false), 60 * MiB, Instance::new);
            assertThat(budget.reserved()).isEqualTo(60 * MiB);
        }
    }

    @Test
    void aFactoryThatFailsReservesNothing() {
        BufferBudget budget = new BufferBudget(100 * MiB);
        PerConnection<Instance> c = new PerConnection<>(budget);
        assertThatThrownBy(() -> c.get("m", new TransferOptions((int) MiB, false), MiB, () -> {
            throw new OutOfMemoryError("Cannot reserve direct buffer memory");
        })).isInstanceOf(OutOfMemoryError.class);
        assertThat(budget.reserved()).isZero();
    }
}
