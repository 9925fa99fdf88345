package io.xferbench.client.load.exchange;

import io.xferbench.core.protocol.Status;
import java.nio.ByteBuffer;

/**
 * The native protocol's one-frame answers (STAT, DELETE): any status but OK fails the exchange with the status's name;
 * an OK frame is judged by its payload.
 */
abstract class OneFrameAnswerParser implements ResponseParser {
    private final NativeDownloadParser.FrameReader frame = new NativeDownloadParser.FrameReader();
    private ExchangeOutcome outcome;

    @Override
    public final boolean feed(ByteBuffer in) throws LoadProtocolException {
        if (!frame.feed(in)) {
            return false;
        }
        outcome = frame.status() == Status.OK ? judge(frame) : ExchangeOutcome.failed(frame.status().name(), 0);
        return true;
    }

    /** The outcome of an OK answer, from its payload. */
    abstract ExchangeOutcome judge(NativeDownloadParser.FrameReader ok) throws LoadProtocolException;

    @Override
    public final ExchangeOutcome outcome() {
        return outcome;
    }
}
