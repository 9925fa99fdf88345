package io.xferbench.server.loop;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * What the protocol executors of an event-loop connection ({@link EventLoopNative}, {@link EventLoopHttp},
 * {@link EventLoopUploads}, {@link EventLoopBody}) need of it: the received bytes, where file work runs, how answers
 * leave, and the steps of a request's life the connection's states follow. {@link EventLoopConnection} is the one
 * implementation; everything runs on the connection's loop.
 */
interface EventLoopExchange extends EventLoopFileWork.Loop {
    /** What the connection serves with and never changes. */
    EventLoopSetting setting();

    /** Received bytes not yet decoded (during an upload, not yet handed to the pool). */
    ByteBuf pending();

    /** Where this connection's file work runs. */
    EventLoopFileWork fileWork();

    /** How a download's head and body leave this connection, by the method asked. */
    EventLoopBody body();

    /** The request served now: how a failure's log names it, whether its answer started, its transfer's window. */
    EventLoopServing request();

    /** How answers leave: whole ones (then {@link #written}), and the cork around a download's. */
    EventLoopAnswerWriter answers();

    // ---- a request's life

    /** A request is in flight from now on, closed if it is not done within {@code budget}. */
    void begin(Duration budget);

    /**
     * A body of {@code bytes} moves from now: it must be through within idle timeout + bytes / --min-rate, and the
     * connection closes as soon as no byte moved for the idle timeout ({@link EventLoopDeadline#watchBody}).
     */
    void bodyMoves(long bytes);

    /** The body is through: what follows (a trailer, the pool's last write and rename) moves nothing on the socket. */
    void bodyMoved();

    /** The request's answer is written (or failed to be): back to waiting for the next one, or closed. */
    void written(boolean ok);

    /** Sends a last answer (if any), then FIN, and drains what the client still sends before the close. */
    void endWith(ByteBuffer answer);

    /** A body's write failed past the answer's head: the connection closes (reported if the failure is the server's). */
    void bodyFailed(Throwable cause, String sentAs);

    // ---- reading

    /** Whether the client shut its side down. */
    boolean inputEnded();

    /** Pauses or resumes reading by how many received bytes wait. */
    void paceReading();

    /** Checks for a reset by the client while it is waited on (transports that do not report one). */
    void watchForReset();
}
