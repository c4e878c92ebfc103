package io.tributary.broker.api;

import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.Errors;

/** ApiVersions: the ranges of {@link SupportedApis} and the {@link Features}, with an error for a client newer than us. */
final class ApiVersionsHandler {
    ApiVersionsResponseData handle(boolean versionSupported) {
        return new ApiVersionsResponseData()
                .setErrorCode(versionSupported ? Errors.NONE.code() : Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(SupportedApis.asApiVersions())
                .setSupportedFeatures(Features.supported())
                .setFinalizedFeaturesEpoch(Features.finalizedEpoch())
                .setFinalizedFeatures(Features.finalized());
    }
}
