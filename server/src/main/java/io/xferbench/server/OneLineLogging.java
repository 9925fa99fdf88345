package io.xferbench.server;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** One line per log entry on stderr: {@code 2026-11-22T07:40:44.123Z INFO conn 7: bad request: ...}. */
final class OneLineLogging {
    private OneLineLogging() {
    }

    static void install() {
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.INFO);
        console.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                String thrown = r.getThrown() == null ? "" : " (" + r.getThrown() + ")";
                return r.getInstant() + " " + r.getLevel() + " " + formatMessage(r).replace('\n', ' ') + thrown + System.lineSeparator();
            }
        });
        root.addHandler(console);
    }
}
