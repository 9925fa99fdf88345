package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.FileIdentity;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A record file's line vouches for exactly its identity, in the current version only. */
class ChecksumRecordLineTest {
    private static final FileIdentity ID = new FileIdentity(8, 1, 12345, 7, 4096, 1_000_000_001L, 1_000_000_002L);
    private static final int CRC = 0xCAFEF00D;

    private static String line(FileIdentity id, int crc) {
        return new String(ChecksumRecordLine.encode(id, crc), StandardCharsets.US_ASCII);
    }

    @Test
    void aLineReadsBackForItsIdentityOnly() {
        String line = line(ID, CRC);
        assertThat(line).isEqualTo("4 8:1 12345 7 4096 1000000001 1000000002 cafef00d\n");
        assertThat(ChecksumRecordLine.crc32cOf(line, ID)).isEqualTo(CRC);
        FileIdentity newerCtime = new FileIdentity(8, 1, 12345, 7, 4096, 1_000_000_001L, 1_000_000_003L);
        FileIdentity otherGeneration = new FileIdentity(8, 1, 12345, 8, 4096, 1_000_000_001L, 1_000_000_002L);
        assertThat(ChecksumRecordLine.crc32cOf(line, newerCtime)).isNull();
        assertThat(ChecksumRecordLine.crc32cOf(line, otherGeneration)).isNull();
    }

    /**
     * A version-3 record may have been taken while a page of the file was dirty and writable through a shared mapping,
     * so it may describe bytes a store changed since without moving the identity: read as no record, the file is hashed.
     */
    @Test
    void aRecordOfAnotherVersionIsNoRecordEvenForTheSameIdentity() {
        String current = line(ID, CRC);
        assertThat(ChecksumRecordLine.crc32cOf("3" + current.substring(1), ID)).isNull();
        assertThat(ChecksumRecordLine.crc32cOf("5" + current.substring(1), ID)).isNull();
    }

    @Test
    void aLineOfAnotherShapeIsNoRecordRatherThanAnError() {
        for (String bad : new String[] {"", "\n", "4096 1000000001 deadbeef", "4 8:1 12345 7 4096 1000000001 cafef00d",
                "4 8:1 12345 7 4096 1000000001 1000000002 cafef00d extra", "4 8-1 12345 7 4096 1000000001 1000000002 cafef00d",
                "4 8:1 12345 7 4096 1000000001 1000000002 notahex", "4 8:1 x 7 4096 1000000001 1000000002 cafef00d"}) {
            assertThat(ChecksumRecordLine.crc32cOf(bad, ID)).as(bad).isNull();
        }
    }
}
