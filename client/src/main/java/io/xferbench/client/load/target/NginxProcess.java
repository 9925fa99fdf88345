package io.xferbench.client.load.target;

import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * nginx, the reference file server, from the machine's package, run as a child from a generated configuration
 * in a temporary directory that is removed when it stops: workers = cores, access log off, keep-alive,
 * serving the same data directory as the xferbench server, and taking PUT and DELETE in it (the dav module).
 */
public final class NginxProcess implements LoadTarget {
    /** The two designs compared: one event loop per worker sending with sendfile, or nginx's thread pool. */
    public enum Design {
        SENDFILE("sendfile", "sendfile on; tcp_nopush on;"),
        AIO_THREADS("aio-threads", "sendfile on; tcp_nopush on; aio threads;");

        public final String id;
        final String directives;

        Design(String id, String directives) {
            this.id = id;
            this.directives = directives;
        }
    }

    private static final long START_TIMEOUT_MILLIS = 10_000;
    private static final String DIR_PREFIX = "xferbench-nginx-";

    private final Process process;
    private final Path dir;
    /** The workers as the master forked them, kept for stopping them should the master die first. */
    private volatile List<ProcessHandle> workers = List.of();
    private final InetSocketAddress address;
    private final Design design;

    private NginxProcess(Process process, Path dir, InetSocketAddress address, Design design) {
        this.process = process;
        this.dir = dir;
        this.address = address;
        this.design = design;
    }

    /** The nginx binary on this machine, or empty (the bench then reports nginx rows as skipped, with the reason). */
    public static Optional<Path> binary() {
        return Stream.concat(Stream.of(System.getenv().getOrDefault("PATH", "").split(":")), Stream.of("/usr/sbin", "/usr/local/sbin"))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "nginx"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Removes what a bench killed by SIGKILL left: its nginx, if still running, and its directory. */
    public static void removeStale() {
        removeStale(OwnedTempDirs.defaultParent());
    }

    /** The same for benches that made their directories in {@code parent}. */
    public static void removeStale(Path parent) {
        OwnedTempDirs.removeStale(parent, DIR_PREFIX);
    }

    public static String missingReason() {
        return "nginx is not installed (apt-get install nginx-light)";
    }

    public static NginxProcess start(Path nginx, Path root, Design design, int connections) throws IOException {
        return start(nginx, root, design, connections, ServerPlacement.LOOPBACK);
    }

    /**
     * The same, placed: behind a launcher (another network namespace, say) and listening on its address. nginx's own
     * directory (configuration, logs, the temp files of PUT bodies) is made beside {@code root}, on its file system,
     * so a PUT ends in a rename as the xferbench server's uploads do, never in a copy across file systems.
     */
    public static NginxProcess start(Path nginx, Path root, Design design, int connections, ServerPlacement placement) throws IOException {
        Path parent = root.toAbsolutePath().getParent();
        Path dir = OwnedTempDirs.create(parent == null ? OwnedTempDirs.defaultParent() : parent, DIR_PREFIX);
        try {
            Files.createDirectories(dir.resolve("tmp"));
            int port = freePort();
            Files.writeString(dir.resolve("nginx.conf"), config(dir, root, placement.address(), port, design, connections),
                    StandardCharsets.UTF_8);
            Process p = ChildProcesses.start(new ProcessBuilder(ChildProcesses.DYING_WITH_BENCH.of(placement.command(
                    List.of(nginx.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString()))))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()));
            InetSocketAddress address = new InetSocketAddress(placement.address(), port);
            NginxProcess started = new NginxProcess(p, dir, address, design);
            started.awaitListening();
            return started;
        } catch (IOException | RuntimeException e) {
            OwnedTempDirs.delete(dir);
            throw e;
        }
    }

    static String config(Path dir, Path root, int port, Design design, int connections) {
        return config(dir, root, "127.0.0.1", port, design, connections);
    }

    static String config(Path dir, Path root, String address, int port, Design design, int connections) {
        // Running as root, workers would drop to 'nobody'; the same user keeps the data directory readable (and
        // writable for PUT).
        String user = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
        return user + """
                worker_processes auto;
                daemon off;
                master_process on;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                worker_rlimit_nofile %3$d;
                events { worker_connections %3$d; }
                http {
                    access_log off;
                    %4$s
                    keepalive_requests 1000000;
                    keepalive_timeout 120s;
                    client_body_temp_path %1$s/tmp;
                    proxy_temp_path %1$s/tmp;
                    fastcgi_temp_path %1$s/tmp;
                    uwsgi_temp_path %1$s/tmp;
                    scgi_temp_path %1$s/tmp;
                    server {
                        listen %6$s:%2$d reuseport;
                        root %5$s;
                        # PUT and DELETE (the load's upload and delete rows): the body goes to a temp file in this
                        # directory, then is renamed over the target, as the xferbench server's uploads are.
                        dav_methods PUT DELETE;
                        create_full_put_path on;
                        dav_access user:rw group:r all:r;
                        # No body limit: the bench chooses the file size; the default (1 MiB) would refuse larger ones.
                        client_max_body_size 0;
                    }
                }
                """.formatted(dir, port, Math.max(1024, connections * 2 + 64), design.directives, root, address);
    }

    private void awaitListening() throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                String log = Files.exists(dir.resolve("stdout.log")) ? Files.readString(dir.resolve("stdout.log")) : "";
                String err = Files.exists(dir.resolve("error.log")) ? Files.readString(dir.resolve("error.log")) : "";
                close();
                throw new IOException("nginx exited at start: " + (log + err).strip());
            }
            // The master listens before it forks the workers: ready means both.
            if (process.descendants().findAny().isPresent()) {
                try (Socket s = new Socket()) {
                    s.connect(address, 200);
                    workers = process.descendants().toList();
                    return;
                } catch (IOException notYet) {
                    // Not listening yet.
                }
            }
            sleep(20);
        }
        close();
        throw new IOException("nginx did not listen on " + address + " within " + START_TIMEOUT_MILLIS + " ms");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public String server() {
        return "nginx";
    }

    @Override
    public String model() {
        return design.id;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public ProcessTree processes() {
        return new ProcessTree(process.toHandle());
    }

    @Override
    public Map<String, Exchange> downloads(long size, int crc) {
        return Map.of("http", new HttpGetExchange(address.getHostString() + ":" + address.getPort(), "/" + DataDirectory.generatedName(size),
                false, size, crc));
    }

    @Override
    public List<String> fileOpProtocols() {
        return List.of("http");
    }

    @Override
    public String httpUrl(long size) {
        return String.format(Locale.ROOT, "http://%s:%d/%s", address.getHostString(), address.getPort(), DataDirectory.generatedName(size));
    }

    /** The directory nginx runs from (configuration, pid, logs); gone after {@link #close()}. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
        // A master that died first (killed) orphaned its workers: not its descendants any more, still serving. The
        // handles carry each worker's start time, so a pid reused since is not touched.
        workers.forEach(ProcessHandle::destroyForcibly);
        OwnedTempDirs.delete(dir);
    }

    /** Data directories nginx's workers must read: rwxr-xr-x, whatever the umask or temp-dir default. */
    public static void makeServable(Path dataDir) throws IOException {
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static List<Design> designs() {
        return List.of(Design.values());
    }
}
