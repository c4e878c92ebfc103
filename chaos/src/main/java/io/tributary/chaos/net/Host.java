package io.tributary.chaos.net;

/** One machine of the test network: a network namespace with one address on the lab's bridge. */
public record Host(String name, String namespace, String address) {
}
