package io.tributary.benchmarks.harness;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Which members of a consumer group have finished: each has partitions, has read them to their
 * end and has committed that synchronously. A rebalance takes a member's partitions away, so it
 * is unfinished again until it has done the same with its new ones. Thread-safe.
 */
final class GroupMembers {
    private final AtomicIntegerArray finished;

    GroupMembers(int members) {
        if (members <= 0) {
            throw new IllegalArgumentException("a group needs members, got " + members);
        }
        this.finished = new AtomicIntegerArray(members);
    }

    void finished(int member) {
        finished.set(member, 1);
    }

    void rebalanced(int member) {
        finished.set(member, 0);
    }

    boolean isFinished(int member) {
        return finished.get(member) == 1;
    }

    boolean allFinished() {
        for (int member = 0; member < finished.length(); member++) {
            if (!isFinished(member)) {
                return false;
            }
        }
        return true;
    }
}
