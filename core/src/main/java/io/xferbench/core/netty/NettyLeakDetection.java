package io.xferbench.core.netty;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak detector in the suite's programs. At its default level ({@code SIMPLE}) it records the stack of
 * one buffer allocation in 128, which a profile of the io_uring server at 1,000 connections put at about 1 % of the
 * server's CPU (docs/load.md): a debugging aid nginx has no counterpart of, so the programs turn it off unless the
 * user asks for a level with {@code -Dio.netty.leakDetection.level}. Servers started inside a test's JVM keep Netty's
 * default.
 */
public final class NettyLeakDetection {
    static final String PROPERTY = "io.netty.leakDetection.level";

    private NettyLeakDetection() {
    }

    /** Off, unless {@value #PROPERTY} is set; returns the level in force. */
    public static ResourceLeakDetector.Level offUnlessAsked() {
        if (System.getProperty(PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        return ResourceLeakDetector.getLevel();
    }
}
