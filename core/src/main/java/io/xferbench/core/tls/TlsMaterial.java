package io.xferbench.core.tls;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A server's certificate and key as files: the chain (leaf first, PEM {@code CERTIFICATE} blocks) and its private key
 * (PEM PKCS#8 {@code PRIVATE KEY}). Files rather than objects, so the same pair can be handed to nginx or curl.
 */
public record TlsMaterial(Path certificateChain, Path privateKey) {
    public TlsMaterial {
        Objects.requireNonNull(certificateChain, "certificateChain");
        Objects.requireNonNull(privateKey, "privateKey");
    }
}
