package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ChecksumRecordNameTest {
    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Existing data directories keep their records: every name whose plain record fits keeps that name. */
    @Test
    void namesUpTo247BytesKeepTheirPlainRecordName() {
        assertThat(ChecksumRecordName.of("f.bin")).isEqualTo(".f.bin.crc32c");
        String longest = "n".repeat(ChecksumRecordName.PLAIN_MAX_BYTES);
        assertThat(ChecksumRecordName.of(longest)).isEqualTo("." + longest + ".crc32c").satisfies(r -> assertThat(bytes(r)).isEqualTo(255));
        assertThat(ChecksumRecordName.of(Path.of("/d/sub/f.bin"))).isEqualTo(Path.of("/d/sub/.f.bin.crc32c"));
    }

    @Test
    void longerNamesGetACutStartAndAHashWithinNameMax() {
        String[] names = {"n".repeat(ChecksumRecordName.PLAIN_MAX_BYTES + 1), "n".repeat(255), "\u20ac".repeat(85),
                "\ud83d\ude00".repeat(63) + "abc"};
        for (String name : names) {
            String record = ChecksumRecordName.of(name);
            assertThat(bytes(record)).as(record).isLessThanOrEqualTo(255);
            assertThat(record).startsWith("..").endsWith(".crc32c");
            // Cut at a whole character: the start is the name's own, decodable, and the record round-trips through UTF-8.
            assertThat(new String(record.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(record);
            assertThat(name).startsWith(record.substring(2, record.lastIndexOf('-')));
        }
    }

    /** The hash is of the whole name: names that differ only past the cut get records of their own. */
    @Test
    void longNamesSharingTheirStartGetRecordsOfTheirOwn() {
        String start = "n".repeat(254);
        assertThat(ChecksumRecordName.of(start + "a")).isNotEqualTo(ChecksumRecordName.of(start + "b"));
        assertThat(ChecksumRecordName.of(start + "a")).isEqualTo(ChecksumRecordName.of(start + "a"));
    }
}
