package io.xferbench.client.load;

import java.net.InetSocketAddress;

/** A server a load bench started and will stop: where it listens, its processes, and how to ask it for a file. */
interface LoadTarget extends AutoCloseable {

    /** The server, e.g. {@code xferbench} or {@code nginx}. */
    String server();

    /** Its design as run, e.g. {@code platform} (thread per connection) or {@code sendfile} (event loop). */
    String model();

    InetSocketAddress address();

    ProcessTree processes();

    /** The exchange that downloads the generated file of {@code size} bytes whose CRC32C is {@code crc}. */
    Exchange download(long size, int crc);

    /** The URL wrk fetches, or null when the server speaks no HTTP. */
    String httpUrl(long size);

    @Override
    void close();
}
