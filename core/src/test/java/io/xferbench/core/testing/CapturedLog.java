package io.xferbench.core.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one logger publishes while this is open, from any thread (with {@link #of(String, Level)} the logger's
 * level lowered meanwhile, put back on close).
 */
public final class CapturedLog extends Handler implements AutoCloseable {
    private final Logger logger;
    private final Level levelBefore;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger logger, Level level, boolean lowerLogger) {
        this.logger = logger;
        this.levelBefore = logger.getLevel();
        setLevel(level);
        if (lowerLogger && !logger.isLoggable(level)) {
            logger.setLevel(level);
        }
        logger.addHandler(this);
    }

    /** Captures {@code name}'s records at its own level (INFO and up by default). */
    public static CapturedLog of(String name) {
        return new CapturedLog(Logger.getLogger(name), Level.ALL, false);
    }

    /** Captures {@code name}'s records from {@code level} up, lowering the logger's level to it if needed. */
    public static CapturedLog of(String name, Level level) {
        return new CapturedLog(Logger.getLogger(name), level, true);
    }

    public List<LogRecord> records() {
        return records;
    }

    public List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    @Override
    public void publish(LogRecord r) {
        if (isLoggable(r)) {
            records.add(r);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(levelBefore);
    }
}
