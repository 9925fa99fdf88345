package io.xferbench.client.load.target;

import io.xferbench.client.load.exchange.Exchange;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/** A server a load bench started and will stop: where it listens, its processes, and how to ask it for a file. */
public interface LoadTarget extends AutoCloseable {

    /** The server, e.g. {@code xferbench} or {@code nginx}. */
    String server();

    /** Its design as run, e.g. {@code platform} (thread per connection) or {@code sendfile} (event loop). */
    String model();

    /** The download method its downloads ask for, or null when the server takes none (nginx). */
    default String method() {
        return null;
    }

    InetSocketAddress address();

    ProcessTree processes();

    /**
     * The ways to download the generated file of {@code size} bytes whose CRC32C is {@code crc}, by protocol
     * ({@code native}, {@code http}), in the order the bench runs them.
     */
    Map<String, Exchange> downloads(long size, int crc);

    /**
     * The protocols among {@link #downloads}' on which the server takes uploads and deletes: nginx over HTTP (PUT and
     * DELETE, dav module), the xferbench server over its native protocol only (its HTTP side serves GET and HEAD).
     */
    List<String> fileOpProtocols();

    /** The URL wrk fetches. */
    String httpUrl(long size);

    @Override
    void close();
}
