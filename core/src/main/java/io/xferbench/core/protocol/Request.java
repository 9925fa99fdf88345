package io.xferbench.core.protocol;

/**
 * One request. {@code name} is a file name relative to the server's data directory, or empty to let the
 * server pick (and create on demand) the generated test file of {@code size} bytes.
 *
 * @param size   download: size of the generated file when name is empty; upload: exact body length
 * @param crc32c upload: CRC32C of the body the client will send
 */
public record Request(Op op, String method, String name, String token, long size, int crc32c, int flags, int bufferSize) {

    public static Request download(String method, long size, int flags, int bufferSize) {
        return new Request(Op.DOWNLOAD, method, "", "", size, 0, flags, bufferSize);
    }

    public static Request control(Op op) {
        return new Request(op, "", "", "", 0, 0, 0, 0);
    }

    public Request withToken(String newToken) {
        return new Request(op, method, name, newToken, size, crc32c, flags, bufferSize);
    }

    public Request withName(String newName) {
        return new Request(op, method, newName, token, size, crc32c, flags, bufferSize);
    }

    public boolean has(int flag) {
        return Flags.has(flags, flag);
    }
}
