package io.tributary.http;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/** {@code http.listeners}: comma-separated {@code http://host:port} addresses; port 0 binds a free port. */
public final class HttpListeners {
    public static final String HTTP_LISTENERS = "http.listeners";

    private HttpListeners() {
    }

    /**
     * The addresses to bind; empty means no HTTP endpoint.
     *
     * @throws IllegalArgumentException naming the entry that is not {@code http://host:port}
     */
    public static List<InetSocketAddress> parse(String value) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String entry : value.split(",")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(trimmed);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(trimmed + " is not http://host:port");
            }
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0 || uri.getPort() > 65535
                    || !(uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/")) || uri.getQuery() != null) {
                throw new IllegalArgumentException(trimmed + " is not http://host:port");
            }
            addresses.add(new InetSocketAddress(uri.getHost(), uri.getPort()));
        }
        return addresses;
    }
}
