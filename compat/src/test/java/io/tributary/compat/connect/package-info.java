/**
 * Two small Kafka Connect plugins for the compatibility suite's distributed worker: a source of numbered records
 * and a sink that writes each value as a line of a file. They are found through {@code META-INF/services}, as
 * {@code plugin.discovery=service_load} finds plugins; Kafka's file connectors of Kafka 4.4 are not published.
 */
package io.tributary.compat.connect;
