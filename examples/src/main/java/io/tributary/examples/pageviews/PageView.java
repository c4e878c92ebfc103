package io.tributary.examples.pageviews;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** One page view as it travels on the {@code page-views} topic: a small JSON object. */
public record PageView(String user, String url, String referrer, long timestamp) {
    private static final ObjectMapper JSON = new ObjectMapper(); // thread-safe once configured

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a page view always serializes", e);
        }
    }

    /** @throws IllegalArgumentException if {@code json} is not a page view */
    public static PageView fromJson(String json) {
        try {
            PageView view = JSON.readValue(json, PageView.class);
            if (view.url() == null) {
                throw new IllegalArgumentException("page view without a url: " + json);
            }
            return view;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a page view: " + json + " (" + e.getOriginalMessage() + ")", e);
        }
    }
}
