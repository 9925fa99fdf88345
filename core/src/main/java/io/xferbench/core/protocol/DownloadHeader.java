package io.xferbench.core.protocol;

/**
 * What the server promises before a download body.
 *
 * @param crc32c            CRC32C of the whole body, computed when the file was generated (never by the sending method)
 * @param residencyPermille share of the file's pages in the page cache just before sending, 0..1000, or -1 if unknown
 */
public record DownloadHeader(long length, int crc32c, int residencyPermille) {
}
