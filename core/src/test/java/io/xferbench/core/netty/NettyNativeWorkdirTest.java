package io.xferbench.core.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.ProcessOwner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep removes dead processes' Netty workdirs and nothing else; a JVM of the suite extracts into its own. */
class NettyNativeWorkdirTest {

    @TempDir
    Path tmp;

    @Test
    void removesOnlyDirectoriesWhoseOwnerIsGone() throws Exception {
        long pid = ProcessHandle.current().pid();
        // This pid with another start time: a process that died and whose pid was reused.
        Path dead = Files.createDirectory(tmp.resolve(NettyNativeWorkdir.PREFIX + pid + ".1"));
        Files.writeString(dead.resolve("libnetty_transport_native_epoll_x86_64123.so"), "left by a SIGKILL");
        Path live = Files.createDirectory(tmp.resolve(NettyNativeWorkdir.PREFIX + ProcessOwner.current()));
        Path otherShape = Files.createDirectory(tmp.resolve(NettyNativeWorkdir.PREFIX + "cache"));
        Path deadFile = Files.writeString(tmp.resolve(NettyNativeWorkdir.PREFIX + pid + ".2"), "a file, not ours");
        Path target = Files.createDirectory(tmp.resolve("elsewhere"));
        Path kept = Files.writeString(target.resolve("keep.so"), "not ours");
        Path link = Files.createSymbolicLink(tmp.resolve(NettyNativeWorkdir.PREFIX + pid + ".3"), target);

        assertThat(NettyNativeWorkdir.sweep(tmp)).containsExactly(dead);

        assertThat(dead).doesNotExist();
        assertThat(live).isDirectory();
        assertThat(otherShape).isDirectory();
        assertThat(deadFile).exists();
        assertThat(link).isSymbolicLink();
        assertThat(kept).exists();
    }

    @Test
    void nettyInThisJvmUsesTheOwnedDirectoryAndItIsGoneOnceBothLibrariesAreLoaded() {
        NettyTransport.EPOLL.availability();   // initialises the class that claims, as every Netty use here does
        Path own = NettyNativeWorkdir.parent().resolve(NettyNativeWorkdir.PREFIX + ProcessOwner.current());
        assertThat(System.getProperty(NettyNativeWorkdir.PROPERTY)).isEqualTo(own.toString());
        assertThat(own).as("the workdir once Netty unlinked the libraries").doesNotExist();
    }
}
