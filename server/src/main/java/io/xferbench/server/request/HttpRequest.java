package io.xferbench.server.request;

import java.util.Map;

/**
 * One HTTP/1.1 request head, as the server acts on it.
 *
 * @param method    GET, HEAD, ...
 * @param path      the decoded path without the query, always starting with '/'
 * @param query     decoded query parameters (the last of a repeated name wins)
 * @param headers   header values by lower-case name (repeated headers joined with ", ")
 * @param keepAlive whether the connection stays open after the response
 */
public record HttpRequest(String method, String path, Map<String, String> query, Map<String, String> headers, boolean keepAlive) {
}
