package io.tributary.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfigCollection;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Kafka's rules for BROKER_LOGGER resources (KIP-412), on this JVM's own reload4j loggers. */
class BrokerLoggerHandlerTest {
    private static final String NAME = "io.tributary.broker.api.BrokerLoggerHandlerTest.subject";
    private final Logger logger = Logger.getLogger(NAME);
    private final BrokerLoggerHandler handler = new BrokerLoggerHandler(7);

    @AfterEach
    void restore() {
        logger.setLevel(null);
    }

    @Test
    void describesTheRootAndEveryLoggerWithTheLevelInForce() {
        logger.setLevel(Level.TRACE);
        List<DescribeConfigsResourceResult> described = handler.describe(new DescribeConfigsResource().setResourceName("7"));
        assertThat(described).extracting(DescribeConfigsResourceResult::name).contains("root", NAME);
        assertThat(described).filteredOn(c -> c.name().equals(NAME)).singleElement()
                .satisfies(c -> assertThat(c.value()).isEqualTo("TRACE"));
        assertThat(handler.describe(new DescribeConfigsResource().setResourceName("7").setConfigurationKeys(List.of("root"))))
                .singleElement().satisfies(c -> assertThat(c.value()).isEqualTo(Logger.getRootLogger().getLevel().toString()));
    }

    @Test
    void setsAndDeletesALevelAndChecksEveryOperationBeforeApplyingAny() {
        handler.alter(resource("7", op(NAME, "DEBUG", OpType.SET)), false);
        assertThat(logger.getLevel()).isEqualTo(Level.DEBUG);
        handler.alter(resource("7", op(NAME, "ERROR", OpType.SET)), true);
        assertThat(logger.getLevel()).as("validate only").isEqualTo(Level.DEBUG);

        assertThatThrownBy(() -> handler.alter(resource("7", op(NAME, "INFO", OpType.SET), op(NAME, "LOUD", OpType.SET)), false))
                .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("LOUD as it is not a supported log level");
        assertThat(logger.getLevel()).as("nothing applied").isEqualTo(Level.DEBUG);

        handler.alter(resource("7", op(NAME, null, OpType.DELETE)), false);
        assertThat(logger.getLevel()).isNull();
    }

    @Test
    void refusesWhatKafkaRefuses() {
        assertThatThrownBy(() -> handler.alter(resource("7", op("no.such.logger", "INFO", OpType.SET)), false))
                .isInstanceOf(InvalidConfigurationException.class).hasMessage("Logger no.such.logger does not exist!");
        assertThatThrownBy(() -> handler.alter(resource("7", op("root", null, OpType.DELETE)), false))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("root logger is not allowed");
        assertThatThrownBy(() -> handler.alter(resource("7", op(NAME, "INFO", OpType.APPEND)), false))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("APPEND operation is not allowed");
        assertThatThrownBy(() -> handler.alter(resource("8", op(NAME, "INFO", OpType.SET)), false))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("expected 7, but received 8");
        assertThatThrownBy(() -> handler.describe(new DescribeConfigsResource().setResourceName("")))
                .isInstanceOf(InvalidRequestException.class).hasMessage("Broker id must not be empty");
    }

    private static AlterableConfig op(String name, String value, OpType type) {
        return new AlterableConfig().setName(name).setValue(value).setConfigOperation(type.id());
    }

    private static AlterConfigsResource resource(String brokerId, AlterableConfig... configs) {
        AlterableConfigCollection collection = new AlterableConfigCollection();
        for (AlterableConfig config : configs) {
            collection.add(config);
        }
        return new AlterConfigsResource().setResourceName(brokerId).setConfigs(collection);
    }
}
