package io.tributary.broker.group;

import org.apache.kafka.common.protocol.Errors;

/** The answer to a SyncGroup: the member's assignment in the current generation. */
public record SyncResult(Errors error, String protocolType, String protocolName, byte[] assignment) {
    private static final byte[] NONE = new byte[0];

    static SyncResult error(Errors error) {
        return new SyncResult(error, null, null, NONE);
    }
}
