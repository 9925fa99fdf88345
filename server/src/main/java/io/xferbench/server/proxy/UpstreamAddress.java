package io.xferbench.server.proxy;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The proxy's {@code --proxy-to HOST:PORT} (or {@code [v6]:PORT}): a host and a port a connection can be made to
 * (1..65535). The host is not resolved here: a name that does not resolve now may later, and each connection
 * resolves it again (an unresolvable one is answered SERVER_ERROR).
 */
public record UpstreamAddress(String host, int port) {

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** Parses and checks {@code --proxy-to} while the command line is parsed: a bad one is a usage error. */
    public static final class Converter implements ITypeConverter<UpstreamAddress> {
        @Override
        public UpstreamAddress convert(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new TypeConversionException("expected HOST:PORT, got '" + text + "'");
            }
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            String portText = text.substring(colon + 1);
            int port;
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("upstream port must be a number 1..65535, not '" + portText + "'");
            }
            // 0 picks a free port when listening, but no server can be reached there.
            if (port < 1 || port > 65_535) {
                throw new TypeConversionException("upstream port must be 1..65535, not " + portText);
            }
            return new UpstreamAddress(host, port);
        }
    }
}
