package io.xferbench.server;

import io.xferbench.core.metrics.ProcessMeasurement;
import java.io.IOException;

/**
 * The server's self-measurement window (MEASURE_BEGIN .. MEASURE_END): CPU time and syscalls of the whole
 * server process. One window at a time; a new BEGIN replaces an unfinished one.
 */
final class Measurements implements AutoCloseable {
    private ProcessMeasurement current;

    synchronized void begin(boolean countSyscalls) throws IOException {
        close();
        current = ProcessMeasurement.begin(countSyscalls);
    }

    synchronized ProcessMeasurement.Result end() throws IOException {
        if (current == null) {
            throw new IllegalStateException("MEASURE_END without MEASURE_BEGIN");
        }
        try {
            return current.end();
        } finally {
            current.close();
            current = null;
        }
    }

    @Override
    public synchronized void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
