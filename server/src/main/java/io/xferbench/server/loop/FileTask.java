package io.xferbench.server.loop;

import java.io.IOException;

/** A request's file work, run on an event-loop model's file pool ({@link EventLoopFileWork}). */
@FunctionalInterface
public interface FileTask<T> {
    T run() throws IOException;
}
