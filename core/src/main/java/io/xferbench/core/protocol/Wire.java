package io.xferbench.core.protocol;

/** Constants and limits of the wire protocol (all integers big-endian). See docs/protocol.md. */
public final class Wire {
    /** "XFB1" */
    public static final int MAGIC = 0x58464231;
    /** The version a server speaks: it reads both layouts. See {@link #VERSION_WITH_HOPS}. */
    public static final int VERSION = 2;
    /** The first layout, without the hop count: written for every frame no proxy has forwarded, so a version 1 peer reads it. */
    public static final int VERSION_WITHOUT_HOPS = 1;
    /** Version 1 plus a trailing u8 hop count (1..255): written only for a frame a proxy forwards. */
    public static final int VERSION_WITH_HOPS = 2;
    /** A proxy refuses to forward a frame that has passed this many proxies already (a loop of proxies, most likely). */
    public static final int MAX_PROXY_HOPS = 8;
    /** Largest hop count the u8 field holds. */
    public static final int MAX_HOPS_FIELD = 255;

    public static final int MAX_METHOD_BYTES = 64;
    public static final int MAX_NAME_BYTES = 1024;
    public static final int MAX_TOKEN_BYTES = 255;
    public static final int MAX_MESSAGE_BYTES = 4096;
    public static final int MAX_BUFFER_SIZE = 64 << 20;

    /** Request frame prefix: u32 magic, u16 body length. */
    public static final int REQUEST_PREFIX_BYTES = 6;
    /** Largest request body: fixed fields plus every string at its limit, and the hop count. */
    public static final int MAX_REQUEST_BODY_BYTES = 1 + 1 + 2 + 1 + MAX_METHOD_BYTES + 2 + MAX_NAME_BYTES + 1 + MAX_TOKEN_BYTES + 8 + 4 + 4 + 1;

    /** Response frame prefix: u32 magic, u8 status, u32 payload length. */
    public static final int RESPONSE_PREFIX_BYTES = 9;
    public static final int MAX_RESPONSE_PAYLOAD_BYTES = 1 << 20;

    private Wire() {
    }
}
