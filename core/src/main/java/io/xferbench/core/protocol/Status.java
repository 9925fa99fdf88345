package io.xferbench.core.protocol;

/** Outcome codes sent in response headers and trailers. */
public enum Status {
    OK(0),
    BAD_REQUEST(1),
    NOT_FOUND(2),
    FORBIDDEN(3),
    /** The method cannot run on the server (skipped, with the reason as message). */
    UNAVAILABLE(4),
    SERVER_ERROR(5),
    BUSY(6),
    NO_SPACE(7),
    VERIFY_FAILED(8),
    TOO_LARGE(9);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Status of(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return SERVER_ERROR;
    }
}
