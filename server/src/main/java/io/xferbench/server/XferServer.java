package io.xferbench.server;

import io.xferbench.core.data.ChecksumRecordSweep;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.FreeSpace;
import io.xferbench.core.data.TempFiles;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.limits.BufferMemoryLimit;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.model.Seams;
import io.xferbench.server.model.ServerListener;
import java.io.IOException;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * Serves one port with the I/O model of {@code --io-model} ({@link ServerModels}): by default the JDK accepts and
 * serves each connection on its own platform thread (blocking I/O is what most of the measured methods are); Netty
 * methods take the socket over per request, see {@link io.xferbench.core.netty.NettyTransport}. At most
 * {@code maxConnections} are served at once; the next one is told BUSY and closed.
 */
public final class XferServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(XferServer.class.getName());

    private final ServerConfig config;
    private final DataDirectory data;
    private final Measurements measurements = new Measurements(MeasurementReport.SERVER);
    private final BufferBudget buffers;
    private ServerListener listener;

    private XferServer(ServerConfig config, DataDirectory data) {
        this.config = config;
        this.data = data;
        this.buffers = new BufferBudget(BufferMemoryLimit.within(config.maxBufferMemory()));
    }

    /** Transfer buffer bytes the connections hold now. */
    public long reservedBufferBytes() {
        return buffers.reserved();
    }

    public static XferServer start(ServerConfig config) throws IOException {
        return start(config, FreeSpace.OF_FILE_SYSTEM);
    }

    /** A server whose writes are checked against {@code freeSpace}: a test's stand-in for a full disk. */
    static XferServer start(ServerConfig config, FreeSpace freeSpace) throws IOException {
        return start(config, freeSpace, UnaryOperator.identity());
    }

    /**
     * A server whose requests are served through {@code seams} applied to its own ({@link Seams#of}): a test's way to
     * make a request fail where a bug or the system would make it fail, on every model.
     */
    static XferServer start(ServerConfig config, FreeSpace freeSpace, UnaryOperator<Seams> seams) throws IOException {
        DataDirectory data = new DataDirectory(config.dataDir(), freeSpace);
        // A server killed mid-upload or mid-generation left its temp files; only dead owners' are removed.
        for (TempFiles.Removed r : data.removeStaleTempFiles()) {
            LOG.info("removed " + r.path() + " (" + r.bytes() + " bytes), left by a server that was killed");
        }
        sweepOrphanedRecords(data);
        DataDirectoryVerdicts verdicts = probe(config);
        XferServer server = new XferServer(config, data);
        ServerModels.Model model = ServerModels.byId(config.ioModel()).orElseThrow(() -> new IllegalArgumentException(
                "unknown --io-model " + config.ioModel() + " (known: " + String.join(", ", ServerModels.ids()) + ")"));
        try {
            server.listener = model.factory().start(new ServerListener.Parts(config, data, server.measurements, server.buffers,
                    local -> ServerInfo.describe(config, verdicts, local), seams.apply(Seams.of(data))));
        } catch (IOException | RuntimeException e) {
            server.measurements.close();
            data.close();
            throw e;
        }
        return server;
    }

    /** The data directory's verdicts for INFO, once; an unavailable method is logged with why. */
    private static DataDirectoryVerdicts probe(ServerConfig config) {
        DataDirectoryVerdicts verdicts = DataDirectoryVerdicts.probe(config.dataDir());
        verdicts.byMethod().forEach((id, a) -> {
            if (!a.isAvailable()) {
                LOG.info(id + " unavailable: " + a.unavailableReason());
            }
        });
        return verdicts;
    }

    /**
     * Records of files removed or renamed behind the server's back, swept before the listener starts (none of this
     * server's uploads is under way); one line with the count. Not sweeping costs only disk space, so a failure is
     * logged and the server starts.
     */
    private static void sweepOrphanedRecords(DataDirectory data) {
        try {
            ChecksumRecordSweep.Swept swept = data.removeOrphanedRecords();
            if (swept.skipped() != null) {
                LOG.info("checksum records of files gone not swept: " + swept.skipped());
            } else if (swept.records() > 0) {
                LOG.info("removed " + swept.records() + " checksum records (" + swept.bytes()
                        + " bytes) of files deleted or renamed by something other than the server");
            }
        } catch (IOException | RuntimeException e) {
            LOG.warning("checksum records of files gone not swept: " + e);
        }
    }

    public int port() {
        return listener.port();
    }

    public String host() {
        return config.bind();
    }

    public DataDirectory data() {
        return data;
    }

    /** Connections open now. */
    public int openConnections() {
        return listener.openConnections();
    }

    /** Measurement windows open now (each belongs to one connection). */
    public int openMeasurementWindows() {
        return measurements.openWindows();
    }

    /** Worker threads alive now, busy or idle. */
    public int workerThreads() {
        return listener.workerThreads();
    }

    /**
     * Graceful stop: no new connections, idle ones closed now, in-flight requests get the shutdown grace
     * period to finish, then everything left is closed.
     */
    @Override
    public void close() {
        try {
            listener.stop(config.shutdownGrace());
        } finally {
            measurements.close();
            try {
                data.close();
            } catch (IOException e) {
                // Only descriptors were to be released; the JDK's cleaner closes what this could not.
            }
        }
    }
}
