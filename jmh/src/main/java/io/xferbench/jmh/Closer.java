package io.xferbench.jmh;

import java.io.IOException;

/** Closes several resources in order, all of them even if one fails; nulls are skipped. */
final class Closer {
    private Closer() {
    }

    static void closeAll(AutoCloseable... resources) throws IOException {
        Exception first = null;
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof IOException io) {
            throw io;
        }
        if (first instanceof RuntimeException re) {
            throw re;
        }
        if (first != null) {
            throw new IOException(first);
        }
    }
}
