package damageiq.embeddeddb;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.h2.mvstore.MVStore;
import org.slf4j.LoggerFactory;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

/**
 * mongo-java-server's H2 backend with two changes the app depends on:
 * <ul>
 * <li>every write command is committed to the MVStore file before it is acknowledged: stock H2
 * commits about once a second, so a killed process lost most recent writes (11 of 100 kept);</li>
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
     * Held shared by every command while it runs, and alone by {@code compactFile}, which lets freed
     * space be reused at once: a read walking an older version of a map would find its pages gone.
     * Cursors hold documents, not pages (upstream collects each batch), so a command is the whole read.
     */
    private final ReentrantReadWriteLock commands = new ReentrantReadWriteLock();

    /** How often the file's fill rate is looked at, and how long one compaction may take. */
    private static final long COMPACT_EVERY_SECONDS = 5;
    private static final int COMPACT_MILLIS = 500;
    /**
     * Below this share of live data in the chunks, or of chunks in the file, it is compacted: every
     * commit writes new pages, and a chunk stays as long as one of its pages is live.
     */
    private static final int COMPACT_BELOW_FILL_RATE = 70;
    private static final int COMPACT_WRITE_BYTES = 4 << 20;
    private static final int SHRINK_BELOW_FILL_RATE = 50;

    DurableH2Backend(MVStore store) {
        super(store);
        version(MONGO_4_4);
        // What opening wrote (an index built from the documents, the first index state).
        commit();
        ScheduledExecutorService compactor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "compact");
            thread.setDaemon(true);
            return thread;
        });
        compactor.scheduleWithFixedDelay(this::compact, COMPACT_EVERY_SECONDS, COMPACT_EVERY_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Rewrites the store's sparse chunks and moves them together, so the file shrinks back towards its
     * live data (every commit writes new pages and leaves the old ones dead). The store's own background
     * compaction is off with its auto-commit: it would commit between two changes of one write.
     */
    private void compact() {
        synchronized (writes) {
            MVStore store = getMvStore();
            if (store.isClosed() || store.getFileStore() == null) {
                return;
            }
            try {
                if (store.getFileStore().getChunksFillRate() < COMPACT_BELOW_FILL_RATE) {
                    // A few MB of the emptiest chunks' live pages rewritten: short, so writes wait little.
                    store.compact(COMPACT_BELOW_FILL_RATE + 10, COMPACT_WRITE_BYTES);
                    store.commit();
                }
                if (store.getFillRate() < SHRINK_BELOW_FILL_RATE) {
                    // Holes make up half the file: chunks moved together and the file cut.
                    // Only with no command running (see `commands`); a busy store is tried again next round.
                    if (commands.writeLock().tryLock(100, TimeUnit.MILLISECONDS)) {
                        int retention = store.getRetentionTime();
                        try {
                            store.compactFile(COMPACT_MILLIS);
                        } finally {
                            store.setRetentionTime(retention);
                            commands.writeLock().unlock();
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // The next round tries again; the data is safe either way (compaction only copies live pages).
                LoggerFactory.getLogger(DurableH2Backend.class).error("compaction failed", e);
            }
        }
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new IndexedH2Database(databaseName, getMvStore(), getCursorRegistry());
    }

    @Override
    public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        commands.readLock().lock();
        try {
            return runCommand(channel, databaseName, command, query);
        } finally {
            commands.readLock().unlock();
        }
    }

    private Document runCommand(Channel channel, String databaseName, String command, Document query) {
        if (command.equals("hello")) {
            return hello(channel, databaseName, query);
        }
        if (!isWrite(command, query)) {
            return super.handleCommand(channel, databaseName, command, query);
        }
        synchronized (writes) {
            try {
                return super.handleCommand(channel, databaseName, command, query);
            } finally {
                // Also after a failed write: an unordered insert may have stored part of its batch.
                commit();
            }
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
