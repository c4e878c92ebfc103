package io.tributary.broker.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.server.config.ConfigSynonym;
import org.apache.kafka.server.config.ServerTopicConfigSynonyms;
import org.junit.jupiter.api.Test;

/**
 * Our topic configs against Apache Kafka 4.4's own definitions (kafka-storage and kafka-server-common, test
 * scope): every key Kafka accepts is accepted here, with the same default, and takes its default from the same
 * server.properties keys.
 */
class KafkaTopicConfigsTest {
    private static final ConfigDef KAFKA = org.apache.kafka.storage.internals.log.LogConfig.configDefCopy();
    private static final ConfigDef OURS = LogConfig.topicConfigDef();

    /** Kafka's keys that users set; internal.* ones are for Kafka's own tests. */
    private static List<String> kafkaTopicKeys() {
        return KAFKA.names().stream().filter(name -> !name.startsWith("internal.")).sorted().toList();
    }

    @Test
    void everyKafkaTopicConfigIsAcceptedWithKafkasDefault() {
        Map<String, Object> kafkaDefaults = new TreeMap<>();
        Map<String, Object> ourDefaults = new TreeMap<>();
        for (String name : kafkaTopicKeys()) {
            kafkaDefaults.put(name, KAFKA.configKeys().get(name).defaultValue);
            ConfigDef.ConfigKey ours = OURS.configKeys().get(name);
            ourDefaults.put(name, ours == null ? "<not accepted>" : ours.defaultValue);
        }
        assertThat(ourDefaults).isEqualTo(kafkaDefaults);
    }

    @Test
    void eachTopicConfigTakesItsDefaultFromTheSameBrokerKeysAsInKafka() {
        Map<String, List<String>> kafka = new TreeMap<>();
        ServerTopicConfigSynonyms.ALL_TOPIC_CONFIG_SYNONYMS.forEach((topicKey, synonyms) ->
                kafka.put(topicKey, synonyms.stream().map(ConfigSynonym::name).toList()));
        Map<String, List<String>> ours = new TreeMap<>(LogConfig.brokerSynonyms());
        assertThat(ours).isEqualTo(kafka);
    }

    @Test
    void uncleanElectionIsTheTopicsOwnElseTheBrokers() {
        LogConfig brokerAllows = LogConfig.fromBroker(Map.of(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "true"));
        assertThat(brokerAllows.uncleanLeaderElectionEnable()).isTrue();
        assertThat(brokerAllows.withTopicOverrides(Map.of(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "false"))
                .uncleanLeaderElectionEnable()).isFalse();
        assertThat(LogConfig.defaults().withTopicOverrides(Map.of(LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE, "true"))
                .uncleanLeaderElectionEnable()).isTrue();
        assertThat(LogConfig.defaults().uncleanLeaderElectionEnable()).isFalse();
    }
}
