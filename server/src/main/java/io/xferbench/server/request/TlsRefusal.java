package io.xferbench.server.request;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;

/**
 * Why a download is refused for TLS reasons, before any file work and before TLS could start (docs/tls.md): the client's
 * {@link Flags#TLS} disagrees with the method, the server has no certificate, or the model cannot run a TLS method.
 */
public final class TlsRefusal {
    /** Why a server started without {@code --tls} or {@code --tls-cert} refuses the TLS methods: the options to ask. */
    public static final String NO_CERTIFICATE = "this server has no TLS certificate: start it with --tls or --tls-cert/--tls-key";

    private TlsRefusal() {
    }

    /** Null when a native DOWNLOAD of {@code method} may go on as far as TLS goes. */
    static Plan.Refusal of(Request request, SenderMethod method, RequestRules rules) {
        boolean tls = method.traits().tls();
        if (tls != request.has(Flags.TLS)) {
            return Plan.Refusal.answered(Status.BAD_REQUEST, tls
                    ? method.id() + " sends its body inside TLS, opened by the client after the head: ask with the TLS flag "
                    + "(a client trusting the server's certificate: --tls-ca)"
                    : method.id() + " sends in clear, and the request asks for TLS (the TLS flag is for TLS methods only)");
        }
        return tls ? unavailable(method, rules) : null;
    }

    static Plan.Refusal unavailable(SenderMethod method, RequestRules rules) {
        String why = whyNot(method, rules.onThreads(), rules.ioModel(), rules.tls() != null);
        return why == null ? null : Plan.Refusal.answered(Status.UNAVAILABLE, why);
    }

    /**
     * Null when a server of {@code ioModel} (on threads or not, with a certificate or not) can run {@code method}, else
     * why not, prefixed by its id: the refusal's text and INFO's reason.
     */
    public static String whyNot(SenderMethod method, boolean onThreads, String ioModel, boolean hasCertificate) {
        if (!method.traits().tls()) {
            return null;
        }
        if (!onThreads) {
            return method.id() + ": not on the event-loop models: its handshake reads the socket from the file pool, and the "
                    + "loop cannot be shown to leave the client's TLS bytes unread there (an io_uring read may be in flight "
                    + "while reading is paused); this server's --io-model is " + ioModel + " (ask platform, virtual or virtual+pool:N)";
        }
        if (!hasCertificate) {
            return method.id() + ": " + NO_CERTIFICATE;
        }
        return null;
    }

    /** Over HTTP a TLS method would need HTTPS from the first byte, which this port does not speak yet. */
    static String overHttp(SenderMethod method) {
        return method.traits().tls() ? method.id() + ": a TLS method is served over the native protocol only (its TLS "
                + "session opens after the head); HTTPS on this port is not served yet" : null;
    }
}
