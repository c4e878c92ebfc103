package io.tributary.chaos.check;

/** A broker's log saying it became leader of a partition at an epoch, in its {@code incarnation}-th process. */
public record LeadershipClaim(int broker, int incarnation, String partition, int epoch) {
}
