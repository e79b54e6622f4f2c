package damageiq.embeddeddb;

import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.aggregation.Aggregation;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Decimal128;
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
        // Documents counted in the page cache at their heap size (see DocumentType).
        MVMap<Object, Document> dataMap = store().openMap(DATABASES_PREFIX + fullName,
            new MVMap.Builder<Object, Document>().valueType(new DocumentType()));
        MVMap<String, Object> metaMap = store().openMap(META_PREFIX + fullName);
        return new IndexedH2Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    @Override
    protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName, List<IndexKey> keys,
                                                       boolean sparse) {
        // Kept in the store beside the documents; built from them only when new or never completed.
        return new OrderedIndex(indexName, keys, sparse, store(), orderedMapName(getFullCollectionNamespace(collectionName), indexName));
    }

    /** The map of an ordered index's entries (under the database's prefix, so dropDatabase removes it). */
    static String orderedMapName(String fullCollectionName, String indexName) {
        return fullCollectionName + "._ordered_" + indexName;
    }

    /**
     * Moves every map of the collection to its new name. Upstream renames the maps of the new name
     * (it reads the name after the rename), so the documents stayed under the old one and the
     * collection opened empty after a restart.
     */
    @Override
    public void moveCollection(MongoDatabase oldDatabase, MongoCollection<?> collection, String newCollectionName) {
        String oldFullName = collection.getFullName();
        super.moveCollection(oldDatabase, collection, newCollectionName);
        String newFullName = getFullCollectionNamespace(newCollectionName);
        MVStore store = store();
        for (String prefix : List.of(DATABASES_PREFIX, META_PREFIX)) {
            // Upstream's rename opened (created) empty maps under the new name: they give way.
            store.removeMap(prefix + newFullName);
            if (store.hasMap(prefix + oldFullName)) {
                store.renameMap(store.openMap(prefix + oldFullName), prefix + newFullName);
            }
        }
        for (String name : Set.copyOf(store.getMapNames())) {
            // The unique indexes' maps (upstream rebuilt them at the next open, from no documents).
            if (name.startsWith(oldFullName + "._index_")) {
                store.renameMap(store.openMap(name), newFullName + name.substring(oldFullName.length()));
            }
        }
        if (collection instanceof IndexedH2Collection indexed) {
            // The entries follow their documents to the new name.
            indexed.renameOrderedIndexes(newFullName);
        }
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
     * An aggregate whose first stage is a {@code $match}: the collection finds the documents (through an
     * index when one serves the filter, else by its scan, with the same matcher either way), the
     * remaining stages run on them. Null for anything else (upstream runs it).
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
        if (!(collection instanceof IndexedH2Collection indexed)) {
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
        Map<String, Object> sums = plainSums(rest);
        List<String> fields = groupedFields(rest);
        // Plain sums, as MongoDB's covered plans, add in index order; other stages see a scan's order.
        List<Document> documents = fields == null ? null : indexed.coveredMatching(match, fields, sums == null);
        if (documents == null) {
            documents = indexed.matching(match);
        }
        return cursorResponse(collectionName, sums != null ? sum(sums, documents) : aggregation.runStages(documents.stream()));
    }

    /**
     * For a pipeline that is only {@code {$group: {_id: null, <name>: {$sum: "$field" | <number>}, ...}}}
     * (a summary card's total): each name with its field, or its constant. Such a group is summed
     * straight from the documents or covered entries ({@link #sum}) instead of through upstream's
     * expression evaluator, which cost more than the walk itself. Null for any other pipeline.
     */
    private static Map<String, Object> plainSums(List<Document> rest) {
        if (rest.size() != 1 || rest.get(0).size() != 1 || !(rest.get(0).get("$group") instanceof Document group)
            || !group.containsKey("_id") || group.get("_id") != null) {
            return null;
        }
        Map<String, Object> operands = new LinkedHashMap<>();
        for (Map.Entry<String, Object> accumulator : group.entrySet()) {
            if (accumulator.getKey().equals("_id")) {
                continue;
            }
            if (!(accumulator.getValue() instanceof Document sum) || sum.size() != 1) {
                return null;
            }
            Object operand = sum.get("$sum");
            boolean plainField = operand instanceof String path && path.startsWith("$") && !path.startsWith("$$") && path.indexOf('.') < 0;
            if (!plainField && !(operand instanceof Number)) {
                return null;
            }
            operands.put(accumulator.getKey(), plainField ? ((String) operand).substring(1) : operand);
        }
        return operands;
    }

    /**
     * The group of {@link #plainSums}: a non-number adds nothing; none without documents. Added exactly,
     * then rounded once, so the total never depends on the order the documents come in (an index's or a
     * scan's): whole numbers stay an int (a long when they leave an int's range or a long was added), any
     * double makes the total a double, any Decimal128 a Decimal128.
     */
    private static List<Document> sum(Map<String, Object> operands, List<Document> documents) {
        if (documents.isEmpty()) {
            return List.of();
        }
        Document result = new Document("_id", null);
        for (Map.Entry<String, Object> operand : operands.entrySet()) {
            ExactSum sum = new ExactSum();
            for (Document document : documents) {
                Object value = operand.getValue() instanceof String field ? document.get(field) : operand.getValue();
                if (value instanceof Number number) {
                    sum.add(number);
                }
            }
            result.put(operand.getKey(), sum.total());
        }
        return List.of(result);
    }

    /** A sum of numbers that is the same in any order (see {@link #sum}). */
    private static final class ExactSum {
        private BigDecimal exact = BigDecimal.ZERO;
        private boolean anyLong;
        private boolean anyDouble;
        private boolean anyDecimal;
        private double special;

        void add(Number number) {
            if (number instanceof Decimal128 decimal) {
                anyDecimal = true;
                exact = exact.add(decimal.toBigDecimal());
            } else if (number instanceof Double || number instanceof Float) {
                anyDouble = true;
                double value = number.doubleValue();
                if (Double.isFinite(value)) {
                    exact = exact.add(new BigDecimal(value));
                } else {
                    // Infinities and NaN: their own sum (+inf + -inf is NaN), whatever the order.
                    special += value;
                }
            } else {
                anyLong |= number instanceof Long;
                exact = exact.add(BigDecimal.valueOf(number.longValue()));
            }
        }

        Number total() {
            if (anyDecimal) {
                return new Decimal128(exact);
            }
            if (anyDouble) {
                return special != 0 || Double.isNaN(special) ? special : exact.doubleValue();
            }
            if (!anyLong && exact.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                && exact.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
                return exact.intValue();
            }
            return exact.longValue();
        }
    }

    /**
     * The top-level fields a pipeline reads when its first stage is a {@code $group} (later stages
     * read only the groups): an index holding them and the {@code $match}'s fields answers it from
     * its entries alone, as MongoDB runs a covered aggregate. Null when the pipeline does not start
     * with a $group or the group reads a whole document ({@code $$ROOT}, {@code $$CURRENT}).
     */
    private static List<String> groupedFields(List<Document> rest) {
        if (rest.isEmpty() || rest.get(0).size() != 1 || !(rest.get(0).get("$group") instanceof Document group)) {
            return null;
        }
        Set<String> fields = new LinkedHashSet<>();
        return collectFieldPaths(group, fields) ? List.copyOf(fields) : null;
    }

    /**
     * Adds the field of every field path ({@code "$field"}, {@code "$field.sub"}) in an expression;
     * false for a variable ({@code "$$..."}). Any string starting with "$" is taken for a path, so a
     * constant that looks like one only makes the aggregate read documents.
     */
    private static boolean collectFieldPaths(Object expression, Set<String> fields) {
        if (expression instanceof String path && path.startsWith("$")) {
            if (path.startsWith("$$")) {
                return false;
            }
            int dot = path.indexOf('.');
            fields.add(dot < 0 ? path.substring(1) : path.substring(1, dot));
            return true;
        }
        if (expression instanceof Document document) {
            return document.values().stream().allMatch(value -> collectFieldPaths(value, fields));
        }
        if (expression instanceof Collection<?> values) {
            return values.stream().allMatch(value -> collectFieldPaths(value, fields));
        }
        return true;
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
