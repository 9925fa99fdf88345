package io.xferbench.core.method;

/** Which way a method moves bytes. */
public enum Direction {
    /** file → socket (the server sends a file). */
    DOWNLOAD,
    /** socket → file (the server stores a body). */
    UPLOAD,
    /** socket → socket (the proxy relays a connection). */
    RELAY
}
