package io.tributary.broker.network;

import java.net.InetAddress;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/** Who sent a request, from where, through which listener: what the handlers check a request against. */
public record Session(KafkaPrincipal principal, InetAddress clientAddress, ListenerName listener, SecurityProtocol protocol) {
}
