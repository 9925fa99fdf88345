package io.xferbench.core.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The programs' leak-detector level: off by default, the user's when the property names one. */
class NettyLeakDetectionTest {
    private ResourceLeakDetector.Level before;
    private String property;

    @BeforeEach
    void save() {
        before = ResourceLeakDetector.getLevel();
        property = System.getProperty(NettyLeakDetection.PROPERTY);
    }

    @AfterEach
    void restore() {
        ResourceLeakDetector.setLevel(before);
        if (property == null) {
            System.clearProperty(NettyLeakDetection.PROPERTY);
        } else {
            System.setProperty(NettyLeakDetection.PROPERTY, property);
        }
    }

    @Test
    void offWhenTheUserAsksForNothing() {
        System.clearProperty(NettyLeakDetection.PROPERTY);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
        assertThat(NettyLeakDetection.offUnlessAsked()).isEqualTo(ResourceLeakDetector.Level.DISABLED);
    }

    @Test
    void theUsersLevelWhenAskedFor() {
        System.setProperty(NettyLeakDetection.PROPERTY, "paranoid");
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        assertThat(NettyLeakDetection.offUnlessAsked()).isEqualTo(ResourceLeakDetector.Level.PARANOID);
    }
}
