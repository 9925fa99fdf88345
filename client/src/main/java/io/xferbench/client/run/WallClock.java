package io.xferbench.client.run;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Wall-clock time in µs since the epoch: comparable between processes (and, with NTP, machines), unlike nanoTime. */
final class WallClock {
    private WallClock() {
    }

    static long epochMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
