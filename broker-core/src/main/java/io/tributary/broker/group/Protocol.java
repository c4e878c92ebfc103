package io.tributary.broker.group;

/** One assignment protocol a member supports (for consumers: an assignor name and its subscription). */
public record Protocol(String name, byte[] metadata) {
}
