package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.tributary.broker.security.AclAuthorizer;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.internals.SecurityUtils;

/**
 * CreateAcls, DescribeAcls and DeleteAcls over the {@link AclAuthorizer}, what Kafka's {@code kafka-acls} and
 * {@code Admin.createAcls} use. Without an authorizer they answer SECURITY_DISABLED, as Kafka does. A binding is
 * refused (INVALID_REQUEST) unless its pattern is literal or prefixed, its principal is {@code Type:name}, its name
 * is not empty (and {@code kafka-cluster} for the cluster) and holds no {@code /} (a ZooKeeper path separator).
 */
final class AclHandler {
    private final Optional<AclAuthorizer> authorizer;

    AclHandler(Optional<AclAuthorizer> authorizer) {
        this.authorizer = authorizer;
    }

    private AclAuthorizer authorizer() {
        return authorizer.orElseThrow(() -> new SecurityDisabledException("No Authorizer is configured on the broker"));
    }

    DescribeAclsResponseData describe(DescribeAclsRequest request) {
        AclBindingFilter filter = request.filter();
        return new DescribeAclsResponseData().setResources(DescribeAclsResponse.aclsResources(authorizer().describe(filter)));
    }

    CreateAclsResponseData create(CreateAclsRequestData request) {
        AclAuthorizer acls = authorizer();
        CreateAclsResponseData response = new CreateAclsResponseData();
        List<AclBinding> valid = new ArrayList<>();
        for (CreateAclsRequestData.AclCreation creation : request.creations()) {
            CreateAclsResponseData.AclCreationResult result = new CreateAclsResponseData.AclCreationResult();
            try {
                AclBinding binding = CreateAclsRequest.aclBinding(creation);
                validate(binding);
                valid.add(binding);
            } catch (ApiException | IllegalArgumentException e) {
                ApiError error = e instanceof ApiException ? ApiError.fromThrowable(e) : new ApiError(Errors.INVALID_REQUEST, e.getMessage());
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.results().add(result);
        }
        acls.create(valid);
        return response;
    }

    DeleteAclsResponseData delete(DeleteAclsRequest request) {
        AclAuthorizer acls = authorizer();
        DeleteAclsResponseData response = new DeleteAclsResponseData();
        for (AclBindingFilter filter : request.filters()) {
            DeleteAclsResponseData.DeleteAclsFilterResult result = new DeleteAclsResponseData.DeleteAclsFilterResult();
            for (AclBinding removed : acls.delete(filter)) {
                result.matchingAcls().add(DeleteAclsResponse.matchingAcl(removed, ApiError.NONE));
            }
            response.filterResults().add(result);
        }
        return response;
    }

    private static void validate(AclBinding binding) {
        if (binding.isUnknown()) {
            throw new InvalidRequestException("Unknown resource type, pattern type, operation or permission in " + binding);
        }
        PatternType patternType = binding.pattern().patternType();
        if (patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            throw new InvalidRequestException("Invalid resource pattern type " + patternType + ": ACLs are literal or prefixed");
        }
        String name = binding.pattern().name();
        if (name.isEmpty()) {
            throw new InvalidRequestException("Invalid empty resource name");
        }
        if (binding.pattern().resourceType() == ResourceType.CLUSTER && !name.equals(Resource.CLUSTER_NAME)) {
            throw new InvalidRequestException("The only valid name for the CLUSTER resource is " + Resource.CLUSTER_NAME);
        }
        if (name.contains("/")) {
            throw new InvalidRequestException("Resource names with '/' cannot be stored in ZooKeeper: " + name);
        }
        SecurityUtils.parseKafkaPrincipal(binding.entry().principal()); // IllegalArgumentException if malformed
    }
}
