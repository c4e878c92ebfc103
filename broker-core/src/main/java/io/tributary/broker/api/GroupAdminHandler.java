package io.tributary.broker.api;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import io.tributary.broker.group.GroupCoordinator;
import io.tributary.broker.group.GroupDescription;
import io.tributary.broker.group.GroupListing;
import io.tributary.broker.group.GroupState;
import io.tributary.broker.group.OffsetManager;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DeleteGroupsResponseData.DeletableGroupResult;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroupMember;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.ListGroupsResponseData.ListedGroup;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * ListGroups, DescribeGroups and DeleteGroups for admin tools. ListGroups v5 reports each group's
 * type (classic or consumer); DescribeGroups describes classic groups only and answers
 * GROUP_ID_NOT_FOUND for a consumer group, as Kafka does (ConsumerGroupDescribe describes those).
 */
final class GroupAdminHandler {
    private static final short FIRST_VERSION_WITH_NOT_FOUND = 6;

    private final GroupCoordinator coordinator;
    private final OffsetManager offsets;

    GroupAdminHandler(GroupCoordinator coordinator, OffsetManager offsets) {
        this.coordinator = coordinator;
        this.offsets = offsets;
    }

    ListGroupsResponseData list(ListGroupsRequestData request) {
        List<String> states = request.statesFilter();
        List<String> types = request.typesFilter();
        ListGroupsResponseData response = new ListGroupsResponseData();
        for (GroupListing group : coordinator.listGroups()) {
            if ((states.isEmpty() || states.stream().anyMatch(group.state()::equalsIgnoreCase))
                    && (types.isEmpty() || types.stream().anyMatch(group.type()::equalsIgnoreCase))) {
                response.groups().add(new ListedGroup().setGroupId(group.groupId()).setProtocolType(group.protocolType())
                        .setGroupState(group.state()).setGroupType(group.type()));
            }
        }
        return response;
    }

    DescribeGroupsResponseData describe(DescribeGroupsRequestData request, short version) {
        DescribeGroupsResponseData response = new DescribeGroupsResponseData();
        for (String groupId : request.groups()) {
            response.groups().add(describe(groupId, version));
        }
        if (request.includeAuthorizedOperations()) { // all: the authorization step narrows it down where there are ACLs
            response.groups().forEach(group -> group.setAuthorizedOperations(AuthorizedOperations.all(ResourceType.GROUP)));
        }
        return response;
    }

    /** One group; a group this broker does not coordinate gets its error alone. */
    private DescribedGroup describe(String groupId, short version) {
        try {
            return coordinator.describe(groupId).map(GroupAdminHandler::described).orElseGet(() -> unknown(groupId, version));
        } catch (ApiException e) {
            return new DescribedGroup().setGroupId(groupId).setErrorCode(Errors.forException(e).code())
                    .setGroupState(GroupState.DEAD.wireName()).setProtocolType("").setProtocolData("");
        }
    }

    private static DescribedGroup described(GroupDescription group) {
        DescribedGroup described = new DescribedGroup().setGroupId(group.groupId())
                .setGroupState(group.state().wireName()).setProtocolType(group.protocolType())
                .setProtocolData(group.protocolName());
        for (GroupDescription.DescribedMember member : group.members()) {
            described.members().add(new DescribedGroupMember().setMemberId(member.memberId())
                    .setGroupInstanceId(member.groupInstanceId()).setClientId(member.clientId())
                    .setClientHost(member.clientHost()).setMemberMetadata(member.metadata())
                    .setMemberAssignment(member.assignment()));
        }
        return described;
    }

    private static DescribedGroup unknown(String groupId, short version) {
        DescribedGroup group = new DescribedGroup().setGroupId(groupId).setGroupState(GroupState.DEAD.wireName())
                .setProtocolType("").setProtocolData("");
        if (version >= FIRST_VERSION_WITH_NOT_FOUND) {
            group.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code()).setErrorMessage("Group " + groupId + " not found.");
        }
        return group;
    }

    /** Answered once every deletion's tombstones are replicated, each group with its error. */
    CompletableFuture<DeleteGroupsResponseData> delete(DeleteGroupsRequestData request) {
        return offsets.deleteGroups(request.groupsNames()).thenApply(results -> {
            DeleteGroupsResponseData response = new DeleteGroupsResponseData();
            results.forEach((groupId, error) -> response.results().add(new DeletableGroupResult().setGroupId(groupId)
                    .setErrorCode(error.code())));
            return response;
        });
    }
}
