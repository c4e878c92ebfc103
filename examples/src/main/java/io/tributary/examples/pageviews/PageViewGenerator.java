package io.tributary.examples.pageviews;

import java.util.List;
import java.util.Random;

/**
 * Synthetic page views: many users, a handful of pages with a few popular ones, and a mix of
 * referrers. Seeded, so two runs produce the same sequence. Not thread-safe.
 */
public final class PageViewGenerator {
    /** Pages, most popular first; page i is picked about twice as often as page i + 2. */
    static final List<String> URLS = List.of("/", "/products", "/products/tea", "/search", "/cart",
        "/products/coffee", "/checkout", "/about", "/blog/how-we-roast", "/account", "/help", "/careers");
    static final List<String> REFERRERS = List.of("(direct)", "https://www.google.com/", "https://duckduckgo.com/",
        "https://news.ycombinator.com/", "https://twitter.com/", "https://example-partner.org/deals");

    private final Random random;
    private final int users;

    public PageViewGenerator(long seed, int users) {
        if (users < 1) {
            throw new IllegalArgumentException("need at least one user, got " + users);
        }
        this.random = new Random(seed);
        this.users = users;
    }

    public PageView next(long timestampMs) {
        String user = String.format("user-%05d", random.nextInt(users));
        return new PageView(user, URLS.get(skewedIndex(URLS.size())),
            REFERRERS.get(skewedIndex(REFERRERS.size())), timestampMs);
    }

    // Geometric-ish: index k with weight 2^(-k/2), so the front of the list dominates.
    private int skewedIndex(int size) {
        double total = 0;
        for (int i = 0; i < size; i++) {
            total += Math.pow(2, -i / 2.0);
        }
        double pick = random.nextDouble() * total;
        for (int i = 0; i < size; i++) {
            pick -= Math.pow(2, -i / 2.0);
            if (pick < 0) {
                return i;
            }
        }
        return size - 1;
    }
}
