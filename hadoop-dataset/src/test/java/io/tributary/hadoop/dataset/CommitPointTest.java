package io.tributary.hadoop.dataset;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@value CommitPoint#HALT_PROPERTY} hook: a malformed value is a clear error for the writer that meets it. */
class CommitPointTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(CommitPoint.HALT_PROPERTY);
    }

    @Test
    void aMalformedPropertyFailsTheWriterThatReachesAPointAndLeavesTheClassUsable() throws Exception {
        System.setProperty(CommitPoint.HALT_PROPERTY, "sink:after-the-party");
        // A class loader of its own, so the class initialises now, with the property set.
        URL classes = CommitPoint.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> points = Class.forName(CommitPoint.class.getName(), true, fresh);
            Object[] values = points.getEnumConstants();
            assertThat(values).hasSize(CommitPoint.values().length);
            Method reached = points.getMethod("reached", String.class);
            assertThatThrownBy(() -> invoke(reached, values[1], "sink"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CommitPoint.HALT_PROPERTY)
                .hasMessageContaining("after-intent")
                .hasMessageContaining("'sink:after-the-party'");
        }
    }

    @Test
    void everyMalformedShapeIsNamed() {
        for (String bad : new String[] {"sink", ":after-intent", "sink:after-intent:0", "sink:after-intent:x", "a:b:c:d"}) {
            assertThatThrownBy(() -> CommitPoint.haltFromProperty(bad)).as(bad)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("<writer>:<point>[:<n>]");
        }
    }

    @Test
    void anUnsetOrWellFormedPropertyParses() {
        CommitPoint.haltFromProperty(null).reached("sink", CommitPoint.AFTER_INTENT);
        CommitPoint.haltFromProperty(" ").reached("sink", CommitPoint.AFTER_INTENT);
        CommitPoint.Listener hook = CommitPoint.haltFromProperty("loader:between-renames:3");
        hook.reached("sink", CommitPoint.BETWEEN_RENAMES); // another writer, another point: no halt
        hook.reached("loader", CommitPoint.AFTER_RENAMES);
    }

    private static void invoke(Method method, Object target, Object... args) throws Throwable {
        try {
            method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
