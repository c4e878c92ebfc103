package io.tributary.broker.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.LogLevelConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigType;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;

/**
 * BROKER_LOGGER config resources (KIP-412, {@code kafka-configs --entity-type broker-loggers}): this broker's log
 * levels, read and changed at runtime through the logging backend (reload4j). DescribeConfigs lists the root logger
 * ({@code root}) and every logger created so far with its level in force; IncrementalAlterConfigs SETs a logger's level
 * (one of Kafka's {@link LogLevelConfig#VALID_LOG_LEVELS}) or DELETEs it, so that the logger takes its parent's again.
 * As in Kafka, a change lasts until the broker restarts (config/log4j.properties is not rewritten), the resource name
 * is this broker's id, a logger must exist, the root logger's level cannot be deleted, and the older AlterConfigs does
 * not take this resource type. Every operation of a resource is checked before any is applied. Thread-safe.
 */
final class BrokerLoggerHandler {
    static final String ROOT_LOGGER = "root";

    private final int brokerId;

    BrokerLoggerHandler(int brokerId) {
        this.brokerId = brokerId;
    }

    List<DescribeConfigsResourceResult> describe(DescribeConfigsResource resource) {
        if (resource.resourceName() == null || resource.resourceName().isEmpty()) {
            throw new InvalidRequestException("Broker id must not be empty");
        }
        requireThisBroker(resource.resourceName());
        Set<String> wanted = ConfigHandler.wanted(resource);
        List<DescribeConfigsResourceResult> configs = new ArrayList<>();
        levels().forEach((name, level) -> {
            if (wanted == null || wanted.contains(name)) {
                configs.add(new DescribeConfigsResourceResult().setName(name).setValue(level)
                        .setConfigSource(ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG.id()).setReadOnly(false).setIsSensitive(false)
                        .setConfigType(ConfigType.STRING.id()).setSynonyms(new ArrayList<>()));
            }
        });
        return configs;
    }

    /** The root logger and every logger there is, each with the level in force (its own, or inherited). */
    private static Map<String, String> levels() {
        Map<String, String> levels = new TreeMap<>();
        levels.put(ROOT_LOGGER, LogManager.getRootLogger().getEffectiveLevel().toString());
        for (Object logger : Collections.list(LogManager.getCurrentLoggers())) {
            levels.put(((Logger) logger).getName(), ((Logger) logger).getEffectiveLevel().toString());
        }
        return levels;
    }

    /** IncrementalAlterConfigs of one BROKER_LOGGER resource. */
    void alter(AlterConfigsResource resource, boolean validateOnly) {
        requireThisBroker(resource.resourceName());
        for (AlterableConfig config : resource.configs()) {
            check(config);
        }
        if (validateOnly) {
            return;
        }
        for (AlterableConfig config : resource.configs()) {
            Logger logger = existing(config.name());
            logger.setLevel(OpType.forId(config.configOperation()) == OpType.SET ? Level.toLevel(config.value()) : null);
        }
    }

    private static void check(AlterableConfig config) {
        OpType op = OpType.forId(config.configOperation());
        if (op == null) {
            throw new InvalidRequestException("Unknown operation type " + config.configOperation() + " is not allowed for the "
                    + ConfigResource.Type.BROKER_LOGGER + " resource");
        }
        switch (op) {
            case SET -> {
                existing(config.name());
                if (!LogLevelConfig.VALID_LOG_LEVELS.contains(config.value())) {
                    throw new InvalidConfigurationException("Cannot set the log level of " + config.name() + " to " + config.value()
                            + " as it is not a supported log level. Valid log levels are "
                            + String.join(", ", LogLevelConfig.VALID_LOG_LEVELS));
                }
            }
            case DELETE -> {
                existing(config.name());
                if (config.name().equals(ROOT_LOGGER)) {
                    throw new InvalidRequestException("Removing the log level of the " + ROOT_LOGGER + " logger is not allowed");
                }
            }
            case APPEND, SUBTRACT -> throw new InvalidRequestException(op + " operation is not allowed for the "
                    + ConfigResource.Type.BROKER_LOGGER + " resource");
        }
    }

    private static Logger existing(String name) {
        Logger logger = name.equals(ROOT_LOGGER) ? LogManager.getRootLogger() : LogManager.exists(name);
        if (logger == null) {
            throw new InvalidConfigurationException("Logger " + name + " does not exist!");
        }
        return logger;
    }

    private void requireThisBroker(String name) {
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("Node id must be an integer, but it is: " + name);
        }
        if (id != brokerId) {
            throw new InvalidRequestException("Unexpected broker id, expected " + brokerId + ", but received " + name);
        }
    }
}
