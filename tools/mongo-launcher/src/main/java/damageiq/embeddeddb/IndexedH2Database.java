package damageiq.embeddeddb;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.aggregation.Aggregation;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import io.netty.channel.Channel;

/**
 * An H2 database whose non-unique indexes exist ({@link OrderedIndex}; upstream ignores them) and
 * whose collections use them ({@link IndexedH2Collection}), also for an aggregate's leading
 * {@code $match} (what mongoose's {@code countDocuments} sends).
 */
final class IndexedH2Database extends H2Database {

    // Same map names as H2Database, so data written by the stock backend opens unchanged.
    private static final String DATABASES_PREFIX = "databases.";
    private static final String META_PREFIX = "meta.";
    private static final Field STORE_FIELD = storeField();
    private static final Set<String> DDL_COMMANDS = Set.of("create", "createindexes", "drop", "dropindexes", "renamecollection");

    IndexedH2Database(String databaseName, MVStore store, CursorRegistry cursorRegistry) {
        super(databaseName, store, cursorRegistry);
    }

    private static Field storeField() {
        try {
            Field field = H2Database.class.getDeclaredField("mvStore");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("mongo-java-server changed: H2Database.mvStore is gone", e);
        }
    }

    /** The store, read from the superclass: collections are opened from its constructor, before ours runs. */
    private MVStore store() {
        try {
            return (MVStore) STORE_FIELD.get(this);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
        String fullName = getFullCollectionNamespace(collectionName);
        MVMap<Object, Document> dataMap = store().openMap(DATABASES_PREFIX + fullName);
        MVMap<String, Object> metaMap = store().openMap(META_PREFIX + fullName);
        return new IndexedH2Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys,
                                                       boolean sparse) {
        // Kept in memory and rebuilt from the documents when the database opens (derived data).
        return new OrderedIndex(indexName, keys, sparse);
    }

    @Override
    public Document handleCommand(Channel channel, String command, Document query, DatabaseResolver databaseResolver,
                                  Oplog oplog) {
        if (command.equalsIgnoreCase("aggregate")) {
            Document answer = aggregateFromIndex(query, databaseResolver, oplog);
            if (answer != null) {
                return answer;
            }
        }
        if (DDL_COMMANDS.contains(command.toLowerCase(Locale.ROOT))) {
            // Upstream creates a collection under this lock for an insert or an index, but not for
            // `create`: the two raced on a new collection ("already existed in system.namespaces").
            synchronized (this) {
                return super.handleCommand(channel, command, query, databaseResolver, oplog);
            }
        }
        return super.handleCommand(channel, command, query, databaseResolver, oplog);
    }

    /**
     * An aggregate whose first stage is a {@code $match} an index can serve: the index finds the
     * documents, the remaining stages run on them. Null for anything else (upstream scans).
     */
    private Document aggregateFromIndex(Document query, DatabaseResolver databaseResolver, Oplog oplog) {
        if (!(query.get("aggregate") instanceof String collectionName)) {
            return null;
        }
        List<Document> pipeline = Aggregation.parse(query.get("pipeline"));
        if (pipeline.isEmpty() || !(pipeline.get(0).get("$match") instanceof Document match)
            || pipeline.get(0).size() != 1) {
            return null;
        }
        MongoCollection<Object> collection = resolveCollection(collectionName, false);
        if (!(collection instanceof IndexedH2Collection indexed) || !indexed.canUseIndex(match)) {
            return null;
        }
        List<Document> rest = pipeline.subList(1, pipeline.size());
        Integer count = countDocuments(indexed, match, rest);
        if (count != null) {
            return cursorResponse(collectionName, count == 0 ? List.of() : List.of(countResult(count)));
        }
        Aggregation aggregation = Aggregation.fromPipeline(rest, databaseResolver, this, collection, oplog);
        aggregation.validate(query);
        if (aggregation.isModifying()) {
            return null;
        }
        List<String> fields = groupFields(rest);
        List<Document> entries = fields == null ? null : indexed.coveredMatching(match, fields);
        if (entries != null) {
            return cursorResponse(collectionName, aggregation.runStages(entries.stream()));
        }
        return cursorResponse(collectionName, aggregation.runStages(indexed.matching(match).stream()));
    }

    /**
     * The drivers' countDocuments pipeline after its $match ({@code [$skip], [$limit],
     * {$group: {_id: 1, n: {$sum: 1}}}}) answered by a count; null for any other pipeline.
     */
    private static Integer countDocuments(IndexedH2Collection collection, Document match, List<Document> rest) {
        int skip = 0;
        int limit = 0;
        int i = 0;
        if (i < rest.size() && rest.get(i).size() == 1 && rest.get(i).get("$skip") instanceof Number n) {
            skip = n.intValue();
            i++;
        }
        if (i < rest.size() && rest.get(i).size() == 1 && rest.get(i).get("$limit") instanceof Number n) {
            limit = n.intValue();
            i++;
        }
        if (i != rest.size() - 1 || rest.get(i).size() != 1 || !(rest.get(i).get("$group") instanceof Document group)) {
            return null;
        }
        boolean countGroup = group.size() == 2 && group.get("_id") instanceof Number id && id.intValue() == 1
            && group.get("n") instanceof Document n && n.size() == 1 && n.get("$sum") instanceof Number one
            && one.intValue() == 1;
        return countGroup ? collection.count(match, skip, limit) : null;
    }

    private static final Set<String> FIELD_ACCUMULATORS = Set.of("$sum", "$min", "$max", "$avg");

    /**
     * The fields a lone {@code $group} with a constant {@code _id} and accumulators of plain fields
     * ({@code {total: {$sum: "$estimatedCost"}}}) reads: with an index holding them and the filter's,
     * the group runs on index entries and no document is read. Null for any other pipeline.
     */
    private static List<String> groupFields(List<Document> rest) {
        if (rest.size() != 1 || rest.get(0).size() != 1 || !(rest.get(0).get("$group") instanceof Document group)
            || !group.containsKey("_id") || group.get("_id") instanceof Document
            || (group.get("_id") instanceof String id && id.startsWith("$"))) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        for (Map.Entry<String, Object> output : group.entrySet()) {
            if (output.getKey().equals("_id")) {
                continue;
            }
            if (!(output.getValue() instanceof Document accumulator) || accumulator.size() != 1) {
                return null;
            }
            Map.Entry<String, Object> operation = accumulator.entrySet().iterator().next();
            if (!FIELD_ACCUMULATORS.contains(operation.getKey())) {
                return null;
            }
            Object operand = operation.getValue();
            if (operand instanceof String reference) {
                String field = reference.startsWith("$") ? reference.substring(1) : "";
                if (field.isEmpty() || field.startsWith("$") || field.contains(".")) {
                    return null;
                }
                if (!fields.contains(field)) {
                    fields.add(field);
                }
            } else if (!(operand instanceof Number)) {
                return null;
            }
        }
        return fields;
    }

    private static Document countResult(int count) {
        Document result = new Document("_id", 1);
        result.put("n", count);
        return result;
    }

    private Document cursorResponse(String collectionName, List<Document> firstBatch) {
        Document cursor = new Document();
        cursor.put("id", 0L);
        cursor.put("ns", getFullCollectionNamespace(collectionName));
        cursor.put("firstBatch", firstBatch);
        Document response = new Document("cursor", cursor);
        response.put("ok", 1.0);
        return response;
    }
}
