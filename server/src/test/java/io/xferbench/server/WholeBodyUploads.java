package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Three uploads whose bodies follow their headers in one write, as the load generator sends them: {@code whole-a.bin}
 * (50 KiB, right CRC32C), {@code whole-b.bin} (4 KiB, wrong CRC32C) and {@code whole-c.bin} (empty). The server must
 * answer ready then result for each, in order: placed, VERIFY_FAILED with nothing left, an empty file placed.
 */
public record WholeBodyUploads(byte[] a, byte[] b) {

    public static WholeBodyUploads of(long seed) {
        byte[] a = new byte[50 * 1024];
        new Random(seed).nextBytes(a);
        byte[] b = new byte[4096];
        new Random(seed + 1).nextBytes(b);
        return new WholeBodyUploads(a, b);
    }

    /** Writes the three requests, bodies behind headers, with {@code methodA} for the first and the empty one. */
    public void send(SocketChannel s, String methodA, String methodB) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(a.length + b.length + 1024);
        out.put(RequestCodec.encode(Request.upload(methodA, "whole-a.bin", a.length, crc32c(a), 0, 0))).put(a);
        out.put(RequestCodec.encode(Request.upload(methodB, "whole-b.bin", b.length, crc32c(b) ^ 1, 0, 0))).put(b);
        out.put(RequestCodec.encode(Request.upload(methodA, "whole-c.bin", 0, crc32c(new byte[0]), 0, 0)));
        s.write(out.flip());
        assertThat(out.hasRemaining()).as("the three requests in one write").isFalse();
    }

    /** Reads the three answers in step and checks what the data directory holds after them. */
    public void assertAnsweredAndPlaced(SocketChannel s, Path dataDir) throws IOException {
        assertThat(ResponseCodec.readUploadReady(s)).isEqualTo(a.length);
        assertThat(ResponseCodec.readUploadResult(s).crc32c()).isEqualTo(crc32c(a));
        assertThat(ResponseCodec.readUploadReady(s)).isEqualTo(b.length);
        assertThatThrownBy(() -> ResponseCodec.readUploadResult(s))
                .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.VERIFY_FAILED));
        assertThat(ResponseCodec.readUploadReady(s)).isZero();
        assertThat(ResponseCodec.readUploadResult(s).bytes()).isZero();
        assertThat(Files.readAllBytes(dataDir.resolve("whole-a.bin"))).isEqualTo(a);
        assertThat(dataDir.resolve("whole-b.bin")).doesNotExist();
        assertThat(Files.size(dataDir.resolve("whole-c.bin"))).isZero();
    }

    public static int crc32c(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes);
        return (int) c.getValue();
    }
}
