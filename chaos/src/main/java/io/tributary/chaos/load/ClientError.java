package io.tributary.chaos.load;

/** An error a producer reported for a send: the error's name and whether the client treats it as retriable. */
public record ClientError(String source, String name, boolean retriable, String message) {
}
