package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupMembersTest {
    private final GroupMembers members = new GroupMembers(3);

    @Test
    void theGroupIsFinishedOnlyWhenEveryMemberIs() {
        members.finished(0);
        members.finished(2);
        assertThat(members.allFinished()).isFalse();

        members.finished(1);
        assertThat(members.allFinished()).isTrue();
    }

    @Test
    void aRebalanceMakesAFinishedMemberUnfinishedAgain() {
        members.finished(0);
        members.finished(1);
        members.finished(2);
        members.rebalanced(1);

        assertThat(members.isFinished(1)).isFalse();
        assertThat(members.allFinished()).isFalse();
    }

    @Test
    void aGroupNeedsMembers() {
        assertThatThrownBy(() -> new GroupMembers(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
