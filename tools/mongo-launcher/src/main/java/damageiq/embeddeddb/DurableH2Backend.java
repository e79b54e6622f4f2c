package damageiq.embeddeddb;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.h2.mvstore.MVStore;
import org.h2.mvstore.RandomAccessStore;
import org.slf4j.LoggerFactory;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import io.netty.channel.Channel;

/**
 * mongo-java-server's H2 backend with two changes the app depends on:
 * <ul>
 * <li>every write command is committed to the MVStore file before it is acknowledged: stock H2
 * commits about once a second, so a killed process lost most recent writes (11 of 100 kept);</li>
 * <li>a write that would leave less than the reserve free on the data directory's disk is refused
 * before it changes anything (MongoDB's error 14031, OutOfDiskSpace): a commit that fails on a full
 * disk makes H2 close the store, and every read after it fails (docs/decisions/0038);</li>
 * <li>it reports MongoDB 4.4 (wire version 9): the Node driver 7 refuses servers below that, and
 * the app uses nothing newer (see docs/decisions/0005).</li>
 * </ul>
 */
final class DurableH2Backend extends H2Backend {

    private static final Set<String> WRITE_COMMANDS = Set.of(
        "insert", "update", "delete", "findandmodify", "createindexes", "dropindexes", "deleteindexes",
        "drop", "dropdatabase", "create", "renamecollection");

    private static final MongoVersion MONGO_4_4 = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(4, 4, 0);
        }

        @Override
        public int getWireVersion() {
            return 9;
        }
    };

    /**
     * Held by a write command from its first change to its commit, and by compaction: with the store's
     * auto-commit off, a commit holds whole writes only (a document with its index entries).
     */
    private final Object writes = new Object();

    /**
     * Held shared by every command while it runs, and alone while compaction moves chunks: a read
     * walking a map would find its pages moved under it.
     * Cursors hold documents, not pages (upstream collects each batch), so a command is the whole read.
     */
    private final ReentrantReadWriteLock commands = new ReentrantReadWriteLock();

    /**
     * Compaction's figures (docs/decisions/0047; each a system property {@code damageiq.*} for benches):
     * a round every 250 ms; the chunks' live pages rewritten, at most 2 MiB a round, while their fill
     * rate is below 90 %; at most 4 MiB of chunks moved into holes while the file's fill rate is below
     * 80 %. At rest (no write since the last round) 4 MiB rewritten and 16 MiB moved a round, below
     * 95 % and 90 %. Small rounds: writes wait for one round at most, and it is short.
     */
    private static final long COMPACT_EVERY_MILLIS = Long.getLong("damageiq.compactEveryMs", 250);
    private static final int COMPACT_BELOW_FILL_RATE = Integer.getInteger("damageiq.compactBelow", 90);
    private static final int COMPACT_WRITE_BYTES = Integer.getInteger("damageiq.compactWrite", 2 << 20);
    private static final int SHRINK_BELOW_FILL_RATE = Integer.getInteger("damageiq.shrinkBelow", 80);
    private static final long MOVE_BYTES = Long.getLong("damageiq.moveBytes", 4 << 20);
    private static final int IDLE_COMPACT_BELOW_FILL_RATE = 95;
    private static final int IDLE_SHRINK_BELOW_FILL_RATE = 90;
    /** The store's versionsToKeep (Launcher). */
    static final int VERSIONS_TO_KEEP = Integer.getInteger("damageiq.versionsToKeep", 2);
    private long restRounds;

    /** Write commands so far, and at the last compaction round: none since is a store at rest. */
    private final AtomicLong writeCount = new AtomicLong();
    private long writesAtLastRound = -1;

    /** MongoDB's code for a write refused for lack of disk space (the app answers 507). */
    static final int OUT_OF_DISK_SPACE = 14031;

    /**
     * A sign-in writes a few hundred bytes to these (its session, its throttle's counters and
     * attempts): they may go on into the reserve down to this floor, so a dealer can still sign in
     * and read while the disk is full.
     */
    private static final Set<String> SIGN_IN_COLLECTIONS = Set.of("sessions", "ratecounters", "loginattempts");
    private static final long SIGN_IN_FLOOR_BYTES = 4L << 20;

    private final FileStore disk;
    private final Path dir;
    private final long reserveBytes;

    DurableH2Backend(MVStore store, Path dir, long reserveBytes) throws IOException {
        super(store);
        this.disk = Files.getFileStore(dir);
        this.dir = dir;
        this.reserveBytes = reserveBytes;
        version(MONGO_4_4);
        // What opening wrote (an index built from the documents, the first index state).
        commit();
        ScheduledExecutorService compactor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "compact");
            thread.setDaemon(true);
            return thread;
        });
        compactor.scheduleWithFixedDelay(this::compact, COMPACT_EVERY_MILLIS, COMPACT_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Keeps the file near its live data (docs/decisions/0047). Every commit writes a chunk of new pages
     * (a document's leaf, each index's leaf, the paths above them); a chunk stays as long as one of its
     * pages is live, and leaves live until a later write touches them, so without this the chunks are
     * a third live and the file grows with every write. Each round (every second):
     * <ol>
     * <li>the live pages of the sparsest chunks are rewritten, a bounded amount, <em>outside</em> the
     * write lock: a rewrite changes no content, the maps take it as any concurrent change, and the next
     * commit (a write's, or ours below) saves them;</li>
     * <li>what is left unsaved is committed under the write lock (a commit holds whole writes only);</li>
     * <li>when holes make up a share of the file, a bounded amount of chunks is moved into them and the
     * file cut, with no command running (see {@code commands}).</li>
     * </ol>
     * The store's own background compaction is off with its auto-commit: it would commit between two
     * changes of one write.
     */
    private void compact() {
        MVStore store = getMvStore();
        // Compaction writes before it frees: not into the reserve.
        if (store.isClosed() || store.getFileStore() == null || freeBytes() < reserveBytes) {
            return;
        }
        // With no write since the last round, nobody waits for writes: rounds aim higher and do more,
        // so a store at rest settles near its live data.
        long seen = writeCount.get();
        boolean idle = seen == writesAtLastRound;
        writesAtLastRound = seen;
        try {
            trace(idle ? "idle" : "busy", store);
            if (idle) {
                if (store.getFillRate() >= IDLE_SHRINK_BELOW_FILL_RATE
                        && store.getFileStore().getChunksFillRate() >= IDLE_COMPACT_BELOW_FILL_RATE) {
                    return;
                }
                // A chunk emptied by the last commits is freed only once the store is versionsToKeep
                // commits further, and a store at rest makes none: a few tiny ones (a counter in a map
                // of our own) let H2 free them.
                synchronized (writes) {
                    for (int i = 0; i <= VERSIONS_TO_KEEP && !store.isClosed(); i++) {
                        store.<String, Long>openMap("damageiq.compaction").put("rounds", ++restRounds);
                        store.commit();
                    }
                }
                // Then the holes filled and the file cut, with no command running; then a rewrite of
                // the sparsest chunks (their space is freed by the next round's commits, and moved
                // into by the round after). Not H2's compactFile: it rewrites again and again within
                // one call, before the chunks it emptied can be freed, and the file grew.
                if (store.getFileStore() instanceof RandomAccessStore file
                        && commands.writeLock().tryLock(100, TimeUnit.MILLISECONDS)) {
                    try {
                        synchronized (writes) {
                            file.compactMoveChunks(IDLE_SHRINK_BELOW_FILL_RATE, 4 * MOVE_BYTES, store);
                        }
                    } finally {
                        commands.writeLock().unlock();
                    }
                }
                if (store.getFileStore().getChunksFillRate() < IDLE_COMPACT_BELOW_FILL_RATE) {
                    store.compact(IDLE_COMPACT_BELOW_FILL_RATE, 2 * COMPACT_WRITE_BYTES);
                    synchronized (writes) {
                        if (store.hasUnsavedChanges() && !store.isClosed()) {
                            store.commit();
                        }
                    }
                }
                trace("after", store);
                return;
            }
            if (store.getFileStore().getChunksFillRate() < COMPACT_BELOW_FILL_RATE) {
                store.compact(COMPACT_BELOW_FILL_RATE, COMPACT_WRITE_BYTES);
            }
            synchronized (writes) {
                if (store.hasUnsavedChanges() && !store.isClosed()) {
                    store.commit();
                }
            }
            if (store.getFillRate() < SHRINK_BELOW_FILL_RATE && store.getFileStore() instanceof RandomAccessStore file) {
                // Only with no command running (see `commands`); a busy store is tried again next round.
                if (commands.writeLock().tryLock(100, TimeUnit.MILLISECONDS)) {
                    try {
                        synchronized (writes) {
                            file.compactMoveChunks(SHRINK_BELOW_FILL_RATE, MOVE_BYTES, store);
                        }
                    } finally {
                        commands.writeLock().unlock();
                    }
                }
            }
            trace("after", store);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // The next round tries again; the data is safe either way (compaction only copies live pages).
            LoggerFactory.getLogger(DurableH2Backend.class).error("compaction failed", e);
        }
    }

    /** -Ddamageiq.compactTrace=<file>: each round's file size and fill rates appended to it (for tuning). */
    private static final String TRACE = System.getProperty("damageiq.compactTrace");

    private static void trace(String when, MVStore store) {
        if (TRACE == null) {
            return;
        }
        String line = String.format("%d %s size=%d fill=%d chunksFill=%d%n", System.nanoTime() / 1_000_000, when,
            store.getFileStore().size(), store.getFillRate(), store.getFileStore().getChunksFillRate());
        try {
            Files.writeString(Path.of(TRACE), line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            // a trace only
        }
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new IndexedH2Database(databaseName, getMvStore(), getCursorRegistry());
    }

    /**
     * Answered without {@code commands}: they read no data, and they are how a client tells a busy engine
     * from a stalled one, so they never wait behind compaction (docs/decisions/0045).
     */
    private static final Set<String> LIVENESS_COMMANDS = Set.of("ping", "hello", "ismaster");

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        if (LIVENESS_COMMANDS.contains(command.toLowerCase(Locale.ROOT))) {
            return runCommand(channel, databaseName, command, query);
        }
        commands.readLock().lock();
        // The version this command starts on (and every later one) keeps its chunks until it ends.
        MVStore.TxCounter reading = getMvStore().registerVersionUsage();
        try {
            return runCommand(channel, databaseName, command, query);
        } finally {
            getMvStore().deregisterVersionUsage(reading);
            commands.readLock().unlock();
        }
    }

    private Document runCommand(Channel channel, String databaseName, String command, Document query) {
        if (command.equals("hello")) {
            return hello(channel, databaseName, query);
        }
        if (command.equals(SNAPSHOT_COMMAND)) {
            return snapshot(query);
        }
        if (!isWrite(command, query)) {
            return super.handleCommand(channel, databaseName, command, query);
        }
        writeCount.incrementAndGet();
        synchronized (writes) {
            refuseWithoutSpace(command, query);
            try {
                return super.handleCommand(channel, databaseName, command, query);
            } finally {
                // Also after a failed write: an unordered insert may have stored part of its batch.
                commitOrExit();
            }
        }
    }

    /** {@code {damageiqSnapshot: 1, name: "<letters, digits, dashes>"}}: see {@link #snapshot}. */
    static final String SNAPSHOT_COMMAND = "damageiqSnapshot";
    private static final java.util.regex.Pattern SNAPSHOT_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9-]{1,80}");

    /**
     * A point-in-time copy of the store for a backup (docs/decisions/0066): the file as the last
     * commit left it, copied with writes held back (a commit holds whole writes only) and the store's
     * file operations quiesced (no chunk written, moved or freed meanwhile). Reads go on; writes wait
     * for the copy. The copy opens as the file does after a kill -9 at that moment: every acknowledged
     * write is in it. Written under the store's directory ({@code snapshots/<name>.mv.db}), never a
     * path a client names, and not into the disk's reserve.
     */
    private Document snapshot(Document query) {
        Object name = query.get("name");
        if (!(name instanceof String text) || !SNAPSHOT_NAME.matcher(text).matches()) {
            throw new MongoServerError(2, "BadValue", "name must be 1 to 80 letters, digits or dashes");
        }
        MVStore store = getMvStore();
        Path source = Path.of(store.getFileStore().getFileName());
        Path target = dir.resolve("snapshots").resolve(text + ".mv.db");
        long started = System.nanoTime();
        try {
            Files.createDirectories(target.getParent());
            if (freeBytes() - Files.size(source) < reserveBytes) {
                throw new MongoServerError(OUT_OF_DISK_SPACE, "OutOfDiskSpace", "not enough free space for a snapshot");
            }
            synchronized (writes) {
                commitOrExit();
                store.executeFilestoreOperation(() -> {
                    try {
                        Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
            }
            Document answer = new Document("ok", 1.0);
            answer.put("path", target.toString());
            answer.put("bytes", Files.size(target));
            answer.put("millis", (System.nanoTime() - started) / 1_000_000);
            return answer;
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new MongoServerError(1, "InternalError", "snapshot failed: " + e.getMessage());
        }
    }

    private long freeBytes() {
        try {
            return disk.getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Refuses a write, before it changes anything, when the disk holds less than the reserve: asked
     * at every write (one statfs, microseconds), so writes resume as soon as space is freed.
     */
    private void refuseWithoutSpace(String command, Document query) {
        long free = freeBytes();
        if (free >= reserveBytes) {
            return;
        }
        if (SIGN_IN_COLLECTIONS.contains(String.valueOf(query.get(command))) && free >= SIGN_IN_FLOOR_BYTES) {
            return;
        }
        throw new MongoServerError(OUT_OF_DISK_SPACE, "OutOfDiskSpace",
            "The server's disk is full: " + (free >> 20) + " MB free, writes need " + (reserveBytes >> 20) + " MB");
    }

    /**
     * Commits; if the commit fails anyway (the disk filled between the check and the commit), H2 has
     * closed the store and no read can be served: the process exits and its supervisor reopens the
     * file, which holds every write up to the last good commit (the failed one is rolled back).
     */
    private void commitOrExit() {
        try {
            commit();
        } catch (RuntimeException e) {
            if (!getMvStore().isClosed()) {
                throw e;
            }
            LoggerFactory.getLogger(DurableH2Backend.class).error("commit failed, the store closed; exiting to reopen it", e);
            Runtime.getRuntime().halt(3);
        }
    }

    /**
     * MongoDB 4.4's name for isMaster (what a client asks for the server's time or role): answered as
     * isMaster is, where mongo-java-server logged a stack trace at every start (no such command).
     */
    private Document hello(Channel channel, String databaseName, Document query) {
        Document answer = super.handleCommand(channel, databaseName, "isMaster", query);
        answer.put("isWritablePrimary", Boolean.TRUE);
        return answer;
    }

    /**
     * MongoDB's serverStatus, plus what this engine's planner read: the index entries its walks visited,
     * the documents they fetched and, per collection, the queries and counts that read the whole collection (no index served them).
     */
    @Override
    public Document getServerStatus() {
        Document status = super.getServerStatus();
        status.put("embeddedEngine", new Document("indexEntriesRead", OrderedIndex.entriesRead())
            .append("documentsRead", IndexedH2Collection.documentsRead())
            .append("collectionScans", IndexedH2Collection.collectionScans()));
        return status;
    }

    private static boolean isWrite(String command, Document query) {
        String name = command.toLowerCase(Locale.ROOT);
        if (WRITE_COMMANDS.contains(name)) {
            return true;
        }
        // An aggregate writes only through a final $out or $merge stage.
        if (name.equals("aggregate") && query.get("pipeline") instanceof List<?> pipeline && !pipeline.isEmpty()) {
            Object last = pipeline.get(pipeline.size() - 1);
            return last instanceof Document stage && (stage.containsKey("$out") || stage.containsKey("$merge"));
        }
        return false;
    }
}
