package io.tributary.chaos.load;

/** A record a broker acknowledged (acks=all): where it says the record is, and when the client heard it. */
public record Ack(String payload, int partition, long offset, long ackNanos) {
}
