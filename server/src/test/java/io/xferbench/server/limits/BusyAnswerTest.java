package io.xferbench.server.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The busy answer follows the client's first bytes: native BUSY, HTTP 503, and a 503 without its body for a HEAD. */
class BusyAnswerTest {
    private static final String WHY = "server busy: 1 connections already open (--max-connections)";

    private static String answerTo(String first) {
        ByteBuffer answer = BusyAnswer.to(ByteBuffer.wrap(first.getBytes(StandardCharsets.ISO_8859_1)), WHY);
        byte[] b = new byte[answer.remaining()];
        answer.get(b);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aHeadHearsTheHeadOfA503AndNothingAfter() {
        String answer = answerTo("HEAD ");
        assertThat(answer).startsWith("HTTP/1.1 503 ").contains("\r\nRetry-After: 1\r\n").endsWith("\r\n\r\n");
        assertThat(answer).contains("\r\nContent-Length: " + (WHY.length() + 1) + "\r\n");
    }

    @Test
    void otherMethodsHearTheReasonInTheBody() {
        for (String first : new String[] {"GET /", "HEADX", "HEAD"}) {
            assertThat(answerTo(first)).as(first).startsWith("HTTP/1.1 503 ").endsWith("\r\n\r\n" + WHY + "\n");
        }
    }

    @Test
    void aNativeClientOrOneThatSentTooLittleHearsBusyInTheNativeProtocol() {
        ByteBuffer busy = ResponseCodec.error(Status.BUSY, WHY);
        for (String first : new String[] {"XFB1\0", "GET", ""}) {
            assertThat(BusyAnswer.to(ByteBuffer.wrap(first.getBytes(StandardCharsets.ISO_8859_1)), WHY)).as(first).isEqualTo(busy);
        }
    }
}
