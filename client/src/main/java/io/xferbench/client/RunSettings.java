package io.xferbench.client;

import io.xferbench.core.protocol.Flags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything that shapes a run; printed with the results so every number says how it was obtained. */
record RunSettings(String host, int port, String token, List<String> methods, List<Long> sizes, int repeat, int warmup,
                   int concurrency, boolean verifyCrc32c, String cache, int bufferSize, boolean unaligned,
                   boolean countSyscalls) {

    int flags() {
        int f = verifyCrc32c ? Flags.VERIFY_CRC32C : 0;
        f |= "cold".equals(cache) ? Flags.CACHE_COLD : Flags.CACHE_WARM;
        f |= unaligned ? Flags.UNALIGNED : 0;
        return f;
    }

    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", host + ":" + port);
        m.put("sizes", sizes);
        m.put("repeat", repeat);
        m.put("warmup", warmup);
        m.put("concurrency", concurrency);
        m.put("verify", verifyCrc32c ? "crc32c" : "length");
        m.put("cache", cache);
        m.put("bufferSize", bufferSize);
        m.put("unalignedBuffer", unaligned);
        m.put("receiver", "page-aligned 1 MiB direct buffer drained by SocketChannel.read, same for every method");
        return m;
    }
}
