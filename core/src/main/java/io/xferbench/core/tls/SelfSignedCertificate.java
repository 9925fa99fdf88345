package io.xferbench.core.tls;

import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away server certificate (EC P-256, valid two days, SAN localhost, 127.0.0.1, ::1 and any given hosts) made
 * with the running JDK's {@code keytool}, written as {@code cert.pem} and {@code key.pem} into a fresh directory of its
 * own that {@link #close()} removes, and a shutdown hook if the program ends first. The directory is named for its
 * process ({@link ProcessOwner}), so one a killed run left is removed by the next one made in the same parent.
 * keytool rather than Java code: the JDK has no public API to sign a certificate.
 */
public final class SelfSignedCertificate implements AutoCloseable {
    static final String PREFIX = "xferbench-tls-";
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);
    private static final int VALIDITY_DAYS = 2;

    private final Path directory;
    private final TlsMaterial material;
    private final Thread hook;

    private SelfSignedCertificate(Path directory) {
        this.directory = directory;
        this.material = new TlsMaterial(directory.resolve("cert.pem"), directory.resolve("key.pem"));
        this.hook = new Thread(this::deleteQuietly, "xferbench-tls-cleanup");
    }

    /** Makes a certificate for localhost and {@code hosts} (names or IP literals) in a new directory under {@code parent}. */
    public static SelfSignedCertificate create(Path parent, List<String> hosts) throws IOException {
        sweep(parent);
        Path dir = Files.createDirectory(parent.resolve(PREFIX + ProcessOwner.current() + "-" + random()),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        SelfSignedCertificate made = new SelfSignedCertificate(dir);
        Runtime.getRuntime().addShutdownHook(made.hook);
        try {
            made.generate(hosts);
            return made;
        } catch (IOException | RuntimeException e) {
            made.close();
            throw e;
        }
    }

    /** Removes what killed processes left under {@code parent} (a parent that SIGKILLs its servers calls it after). */
    public static void sweep(Path parent) throws IOException {
        OwnedDirectories.removeStale(parent, PREFIX);
    }

    public TlsMaterial material() {
        return material;
    }

    /** The certificate a client is to trust. */
    public Path certificate() {
        return material.certificateChain();
    }

    private void generate(List<String> hosts) throws IOException {
        Path store = directory.resolve("keystore.p12");
        String password = random();
        // keytool is a JVM of its own: C1 and the serial collector start it faster, and one key needs no more.
        List<String> command = new ArrayList<>(List.of(keytool().toString(), "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
                "-genkeypair", "-alias", "server",
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost",
                "-ext", "SAN=" + san(hosts), "-validity", String.valueOf(VALIDITY_DAYS), "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", password, "-keypass", password));
        run(command);
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, password.toCharArray());
            Key key = keys.getKey("server", password.toCharArray());
            Files.writeString(material.certificateChain(),
                    PemFiles.pem("CERTIFICATE", keys.getCertificate("server").getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(material.privateKey(), PemFiles.pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("keytool's keystore " + store + " cannot be read: " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(store);
        }
    }

    static String san(List<String> hosts) {
        List<String> names = new ArrayList<>(List.of("dns:localhost", "ip:127.0.0.1", "ip:::1"));
        for (String host : hosts) {
            String entry = (host.matches("[0-9.]+") || host.contains(":") ? "ip:" : "dns:") + host;
            if (!names.contains(entry)) {
                names.add(entry);
            }
        }
        return String.join(",", names);
    }

    private static void run(List<String> command) throws IOException {
        // Its output goes to a file and its input is empty, so a keytool that prompts fails and one that hangs meets the timeout.
        Path log = Files.createTempFile("xferbench-keytool-", ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(KEYTOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IOException("keytool did not finish in " + KEYTOOL_TIMEOUT.toSeconds() + " s: " + command.get(0));
            }
            if (p.exitValue() != 0) {
                String output = Files.readString(log, StandardCharsets.UTF_8).strip().replace('\n', ' ');
                throw new IOException("keytool failed (exit " + p.exitValue() + "): " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool made a certificate", e);
        } finally {
            Files.deleteIfExists(log);
            p.destroyForcibly();
        }
    }

    /** The keytool of the JDK running this program: next to its java, else under java.home. */
    static Path keytool() throws IOException {
        List<Path> candidates = new ArrayList<>();
        ProcessHandle.current().info().command().ifPresent(java -> candidates.add(Path.of(java).resolveSibling("keytool")));
        candidates.add(Path.of(System.getProperty("java.home"), "bin", "keytool"));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IOException("no keytool next to this JVM (looked at " + candidates
                + "): a JRE without it cannot make a self-signed certificate; give --tls-cert and --tls-key");
    }

    private static String random() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Removes the directory and its files; the shutdown hook is no longer needed. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it deletes too
        }
        OwnedDirectories.delete(directory);
    }

    private void deleteQuietly() {
        try {
            OwnedDirectories.delete(directory);
        } catch (IOException ignored) {
            // nothing to report to at exit
        }
    }
}
