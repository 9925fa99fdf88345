package io.xferbench.server.request;

import io.xferbench.core.tls.TlsEndpoint;

/**
 * What a server's options say of the requests it takes.
 *
 * @param token the token every request must carry, empty for none
 * @param maxGenerated the largest generated file a DOWNLOAD or PREPARE may ask for
 * @param maxUpload the largest upload
 * @param ioModel the server's --io-model, as refusals name it
 * @param onThreads whether the model serves on threads: a loop method is refused there, and a method's availability
 *        is checked before anything else (an event loop checks it where the body is sent)
 * @param tls the server's TLS end its TLS methods send with; null for a server without a certificate, which refuses them
 */
public record RequestRules(String token, long maxGenerated, long maxUpload, String ioModel, boolean onThreads, TlsEndpoint tls) {
    /** The rules of a server without TLS. */
    public RequestRules(String token, long maxGenerated, long maxUpload, String ioModel, boolean onThreads) {
        this(token, maxGenerated, maxUpload, ioModel, onThreads, null);
    }
}
