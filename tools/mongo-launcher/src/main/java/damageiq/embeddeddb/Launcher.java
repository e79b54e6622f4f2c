package damageiq.embeddeddb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.h2.mvstore.MVStore;

/**
 * Runs the embedded database for the app: a MongoDB wire-protocol server (mongo-java-server, H2
 * MVStore on disk) on a loopback port. Usage:
 * {@code java -Xmx512m -jar mongo-launcher.jar --port 27017 --dir data/db [--cache-mb 64] [--reserve-mb 32] [--watch-stdin]}
 *
 * <p>With {@code --watch-stdin} it exits when its standard input closes, so a crashed app never leaves
 * an orphaned server holding the data directory.
 */
public final class Launcher {

    /** Set once the port is open: progress lines are for the start only (see {@link #opening}). */
    private static volatile boolean listening;

    private Launcher() {
    }

    /**
     * Tells the app what the start is doing, on standard output: {@code embedded database opening: <text>}
     * (the app shows the last one as its progress until the port is open). Nothing once listening.
     */
    static void opening(String text) {
        if (!listening) {
            System.out.println("embedded database opening: " + text);
            System.out.flush();
        }
    }

    public static void main(String[] args) throws IOException {
        // Errors only: the server logs every connection and index at INFO.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");

        int port = 27017;
        Path dir = Path.of("data", "db");
        int cacheMb = 64;
        // Writes stop while the data directory's disk has less than this free (DurableH2Backend).
        long reserveMb = 32;
        boolean watchStdin = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--cache-mb" -> cacheMb = Integer.parseInt(args[++i]);
                case "--reserve-mb" -> reserveMb = Long.parseLong(args[++i]);
                case "--watch-stdin" -> watchStdin = true;
                default -> {
                    System.err.println("mongo-launcher: unknown argument " + args[i]);
                    System.exit(2);
                }
            }
        }

        Files.createDirectories(dir);
        MVStore store = new MVStore.Builder()
            .fileName(dir.resolve("damageiq.mv.db").toString())
            .cacheSize(cacheMb)
            // Only our commits, each after a whole write (DurableH2Backend): a background commit
            // could land between a document and its index entries.
            .autoCommitDisabled()
            // Nor a commit from inside a large write when its changes pass a size: ours only.
            .autoCommitBufferSize(0)
            // Pages compressed (LZF, cheap): a commit writes a third of the bytes, the file holds more.
            .compress()
            // 16 keys a page, not 48: every write commits the leaf of each index it touches and the
            // path above it, and a chunk stays while one of its pages is live; smaller pages make
            // each commit's chunk smaller and the file closer to its data (docs/decisions/0047).
            .keysPerPage(Integer.getInteger("damageiq.keysPerPage", 16))
            .open();
        // A dead chunk's space is reused at once (H2 keeps 45 s; we kept 10 s): at a few hundred writes
        // a second the file otherwise holds the last seconds of them. What the retention time was for
        // is kept otherwise: a command registers the version it reads (DurableH2Backend.handleCommand),
        // and no chunk a registered version reads is freed; the store keeps its last versions
        // (versionsToKeep 2, H2's default 5: a chunk is freed two commits after its last live page went,
        // not five, so a store at rest gives its space back), so a commit torn by a kill falls back to
        // the last whole one. A power cut was never covered: a commit is not synced (docs/decisions/0047).
        store.setRetentionTime(Integer.getInteger("damageiq.retentionMs", 0));
        store.setVersionsToKeep(DurableH2Backend.VERSIONS_TO_KEEP);
        // Indexes to build (an older data directory) are built after every database is open, one read
        // of a collection's documents for all of them.
        IndexedH2Collection.deferBuilds();
        DurableH2Backend backend = new DurableH2Backend(store, dir, reserveMb << 20);
        IndexedH2Collection.buildDeferred();
        backend.commit();
        // Each connection's commands on a thread of its own (EngineServer), as MongoDB runs them.
        EngineServer server = new EngineServer(backend);
        // Loopback only: the database is never reachable from another machine.
        server.bind("127.0.0.1", port);

        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "shutdown"));
        listening = true;
        System.out.println("embedded database listening on 127.0.0.1:" + port);
        System.out.flush();

        if (watchStdin) {
            Thread watcher = new Thread(() -> {
                try (InputStream in = System.in) {
                    while (in.read() != -1) {
                        // The parent never writes; a read returns only at end of stream.
                    }
                } catch (IOException ignored) {
                    // A broken pipe means the same: the parent is gone.
                }
                System.exit(0);
            }, "watch-stdin");
            watcher.setDaemon(true);
            watcher.start();
        }
    }
}
