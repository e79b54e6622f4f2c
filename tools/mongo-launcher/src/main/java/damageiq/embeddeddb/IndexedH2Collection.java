package damageiq.embeddeddb;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.h2.mvstore.MVMap;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

/**
 * An H2 collection with a small query planner. Upstream uses an index only when the filter's keys
 * are exactly a unique index's keys, so {@code {_id, ownerId}} or {@code {ownerId}} read the whole
 * collection and sort it. Here:
 * <ol>
 * <li>a unique index whose every key has an equality in the filter (e.g. {@code _id}) finds the one
 * candidate, and a one-key unique index with an {@code $in} of plain values (a page's contacts by
 * {@code _id}) finds one per value;</li>
 * <li>else the {@link OrderedIndex} with the longest equality prefix finds the candidates, in the
 * requested order when the index has it, so {@code skip}/{@code limit} stop early;</li>
 * <li>else upstream's scan.</li>
 * </ol>
 * The whole filter is still applied to every candidate, so a plan only narrows what is read.
 */
final class IndexedH2Collection extends H2Collection {

    /** A filter value that is not a plain equality. */
    static final Object NOT_EQUALITY = new Object();

    /** Candidates in the requested order or not; the ordered index and equality prefix used, if any. */
    private record Plan(Stream<Object> positions, boolean inOrder, OrderedIndex index, List<Object> prefix) {
    }

    /** The documents by position: its key order is the order a scan returns them in. */
    private final MVMap<Object, Document> dataMap;

    IndexedH2Collection(MongoDatabase database, String collectionName, CollectionOptions options,
                        MVMap<Object, Document> dataMap, MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
        super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
        this.dataMap = dataMap;
    }

    /** Set (under the lock) while candidates must come in a scan's order: see {@link #handleDistinct}. */
    private boolean distinctInScanOrder;

    /**
     * Distinct values from the documents in a scan's order: upstream keeps the first of two values it
     * holds equal (12 and 12.0), so in an index's order the answer would depend on the plan.
     */
    @Override
    public synchronized Document handleDistinct(Document query) {
        distinctInScanOrder = true;
        try {
            return super.handleDistinct(query);
        } finally {
            distinctInScanOrder = false;
        }
    }

    /** The indexes in the order of their names: the planner's order of preference among equals. */
    private List<Index<Object>> indexesByName() {
        List<Index<Object>> indexes = new ArrayList<>(getIndexes());
        indexes.sort(Comparator.comparing(Index::getName));
        return indexes;
    }

    // Under the collection's lock: the planner reads the list of indexes while it holds the lock.
    @Override
    public synchronized void addIndex(Index<Object> index) {
        boolean known = getIndexes().stream().anyMatch(existing -> existing.getName().equals(index.getName()));
        if (!known && index instanceof OrderedIndex ordered && !ordered.isComplete()) {
            // A new index, or one of a data directory written before entries were kept: built once;
            // while the database opens, with the collection's other such indexes (buildDeferred).
            if (deferringBuilds) {
                deferred.computeIfAbsent(this, c -> new ArrayList<>()).add(ordered);
            } else {
                OrderedIndex.build(List.of(ordered), dataMap, this);
            }
        }
        super.addIndex(index);
    }

    /**
     * While the store opens (nothing is served yet), indexes to build are kept per collection and built
     * in one read of its documents each ({@link #buildDeferred}), instead of one read per index.
     */
    private static volatile boolean deferringBuilds;
    private static final Map<IndexedH2Collection, List<OrderedIndex>> deferred = new java.util.LinkedHashMap<>();

    static void deferBuilds() {
        deferringBuilds = true;
    }

    /** Builds what {@link #deferBuilds} kept, a collection at a time; builds are immediate from now on. */
    static void buildDeferred() {
        deferringBuilds = false;
        for (Map.Entry<IndexedH2Collection, List<OrderedIndex>> pending : deferred.entrySet()) {
            IndexedH2Collection collection = pending.getKey();
            synchronized (collection) {
                OrderedIndex.build(pending.getValue(), collection.dataMap, collection);
            }
        }
        deferred.clear();
    }

    /** After a rename: the ordered indexes' maps take the collection's new name. */
    synchronized void renameOrderedIndexes(String newFullName) {
        for (Index<Object> index : getIndexes()) {
            if (index instanceof OrderedIndex ordered) {
                ordered.rename(IndexedH2Database.orderedMapName(newFullName, index.getName()));
            }
        }
    }

    @Override
    public synchronized void dropIndex(String indexName) {
        super.dropIndex(indexName);
    }

    /** Upstream's matcher, except that {@code $regex} matches strings only (see {@link StringRegex}). */
    @Override
    protected boolean documentMatchesQuery(Document document, Document query) {
        Compiled compiled = lastCompiled;
        if (compiled == null || compiled.query() != query) {
            // Compiled once per query: every document of a query is tested against the same filter object.
            compiled = new Compiled(query, StringRegex.compile(query, super::documentMatchesQuery));
            lastCompiled = compiled;
        }
        return compiled.test() == null ? super.documentMatchesQuery(document, query) : compiled.test().test(document);
    }

    /** A filter and its test ({@code null}: no regular expression, upstream's matcher decides). */
    private record Compiled(Document query, Predicate<Document> test) {
    }

    private volatile Compiled lastCompiled;

    /**
     * Sorts as upstream, except that two numbers compare exactly (upstream truncates a double compared
     * with a long beyond an int) and two empty arrays are equal (upstream has each before the other, so
     * their order was arbitrary), as the index orders them: a walk in index order and a sort agree.
     */
    @Override
    protected QueryResult matchDocumentsFromStream(Stream<Document> documentStream, Document query, Document orderBy,
                                                   int numberToSkip, int limit, int batchSize, Document fieldSelector) {
        return matchDocumentsFromStream(query, documentStream, numberToSkip, limit, batchSize, sortOrder(orderBy), fieldSelector);
    }

    private static Comparator<Document> sortOrder(Document orderBy) {
        if (orderBy == null || orderBy.isEmpty() || orderBy.keySet().iterator().next().equals("$natural")) {
            return null;
        }
        List<Map.Entry<String, Object>> keys = List.copyOf(orderBy.entrySet());
        return (a, b) -> {
            for (Map.Entry<String, Object> key : keys) {
                boolean ascending = ((Number) key.getValue()).intValue() > 0;
                Object x = Utils.getSubdocumentValueCollectionAware(a, key.getKey());
                Object y = Utils.getSubdocumentValueCollectionAware(b, key.getKey());
                if (x instanceof Collection<?> e && e.isEmpty() && y instanceof Collection<?> f && f.isEmpty()) {
                    continue;
                }
                int c = x instanceof Number && y instanceof Number
                    ? (ascending ? 1 : -1) * OrderedIndex.compareValues(x, y)
                    : (ascending ? ValueComparator.asc() : ValueComparator.desc()).compare(x, y);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit, int batchSize,
                                         Document fieldSelector) {
        StringRegex.validate(query);
        List<Document> covered = coveredQuery(query, orderBy, numberToSkip, limit, fieldSelector);
        if (covered != null) {
            return createQueryResult(covered, batchSize);
        }
        Plan plan = plan(query, orderBy);
        if (plan == null) {
            countScan();
            return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }
        Stream<Object> positions = plan.positions();
        if (plan.index() != null && plan.index().isMultikey()) {
            // An array key gives a document one entry per element: read each document once.
            positions = positions.distinct();
        }
        if (distinctInScanOrder) {
            positions = positions.sorted(dataMap.getKeyType()::compare);
        }
        if (plan.inOrder() && !distinctInScanOrder && numberToSkip > 0 && plan.index() != null
            && plan.prefix().size() == query.size()) {
            // Every condition is an equality of the index's prefix, so every entry matches (as a count
            // of the range trusts): an offset's skipped entries are passed over unread, not fetched.
            positions = positions.skip(numberToSkip);
            numberToSkip = 0;
        }
        Stream<Document> candidates = positions.map(this::readDocument).filter(Objects::nonNull);
        if (plan.inOrder() && !distinctInScanOrder) {
            // No comparator: filter, skip and limit run lazily over the index order.
            return matchDocumentsFromStream(query, candidates, numberToSkip, limit, batchSize, null, fieldSelector);
        }
        return matchDocumentsFromStream(candidates, query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /**
     * A covered query, answered from an index's entries alone (as MongoDB does): no sort, an
     * inclusion projection without {@code _id} whose fields, like the filter's, are all keys of one
     * index. Null for anything else. The pricing engine's lookups of figures are such queries.
     */
    private List<Document> coveredQuery(Document query, Document orderBy, int skip, int limit, Document fieldSelector) {
        if (fieldSelector == null || fieldSelector.isEmpty() || (orderBy != null && !orderBy.isEmpty())) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        boolean idExcluded = false;
        for (Map.Entry<String, Object> field : fieldSelector.entrySet()) {
            boolean included = field.getValue() instanceof Boolean b ? b
                : field.getValue() instanceof Number n && n.doubleValue() != 0;
            if (field.getKey().equals("_id")) {
                idExcluded = !included;
            } else if (!included || field.getKey().contains(".") || field.getKey().startsWith("$")) {
                return null;
            } else {
                fields.add(field.getKey());
            }
        }
        Candidate covering = idExcluded && !fields.isEmpty() ? best(query, null, true, fields) : null;
        if (covering == null) {
            return null;
        }
        Stream<Document> projected = covering.index()
            .coveredProjection(covering.prefix(), query, values -> documentMatchesQuery(values, query), fields)
            .skip(Math.max(skip, 0));
        // A negative limit is a single batch of that many: the same count here.
        return (limit != 0 ? projected.limit(Math.abs((long) limit)) : projected).toList();
    }

    /**
     * Counts from an index alone when it holds every field the filter names (no document is read).
     * Under the collection's lock, as every write: an update replaces an entry by removing and adding
     * it, and a count between the two was one short.
     */
    @Override
    public synchronized int count(Document query, int skip, int limit) {
        StringRegex.validate(query);
        Candidate covering = best(query, null, true);
        if (covering != null && covering.prefix().size() == query.size()) {
            // Every condition is an equality of the prefix: the size of the range is the answer.
            long matched = Math.max(covering.index().countRange(covering.prefix()) - Math.max(skip, 0), 0);
            return (int) (limit > 0 ? Math.min(matched, limit) : matched);
        }
        Long present = covering != null && covering.prefix().size() == 1 && query.size() == 2 && skip <= 0 && limit <= 0
            ? presentCount(covering, query) : null;
        if (present != null) {
            return present.intValue();
        }
        if (covering != null) {
            return (int) covering.index().countCovered(covering.prefix(), query, values -> documentMatchesQuery(values, query),
                Math.max(skip, 0), Math.max(limit, 0));
        }
        if (query != null && !query.isEmpty()) {
            countScan();
        }
        return super.count(query, skip, limit);
    }

    private static final LongAdder DOCUMENTS_READ = new LongAdder();

    /** A candidate's document, counted: what a plan read beyond its index entries. */
    private Document readDocument(Object position) {
        DOCUMENTS_READ.increment();
        return getDocument(position);
    }

    /** How many documents the planner's walks have read since the engine started. */
    static long documentsRead() {
        return DOCUMENTS_READ.sum();
    }

    /** Whole-collection reads by collection (a filter no index served) since the engine started. */
    private static final Map<String, LongAdder> SCANS = new java.util.concurrent.ConcurrentHashMap<>();

    private void countScan() {
        SCANS.computeIfAbsent(getCollectionName(), name -> new LongAdder()).increment();
    }

    /** What a plan could not avoid, observable (serverStatus): each collection's whole reads. */
    static Document collectionScans() {
        Document scans = new Document();
        new java.util.TreeMap<>(SCANS).forEach((name, count) -> scans.put(name, count.sum()));
        return scans;
    }

    /** {@code {first key: value, field: {$exists: bool}}} answered from the index's kept counts; else null. */
    private static Long presentCount(Candidate covering, Document query) {
        String first = covering.index().keyNames().get(0);
        for (Map.Entry<String, Object> condition : query.entrySet()) {
            if (condition.getKey().equals(first)) {
                continue;
            }
            if (condition.getValue() instanceof Document test && test.size() == 1
                && (test.get("$exists") instanceof Boolean || test.get("$exists") instanceof Number)) {
                Object exists = test.get("$exists");
                boolean wanted = exists instanceof Boolean b ? b : ((Number) exists).doubleValue() != 0;
                return covering.index().countPresent(covering.prefix().get(0), condition.getKey(), wanted);
            }
        }
        return null;
    }

    /**
     * The documents matching the filter reduced to {@code fields}, read from the entries of one index
     * that holds the filter's fields and these (a covered aggregate), in a scan's order or, when the
     * caller's answer does not depend on it, in the index's; null when no index holds them all.
     */
    synchronized List<Document> coveredMatching(Document query, List<String> fields, boolean inScanOrder) {
        StringRegex.validate(query);
        Candidate covering = best(query, null, true, fields);
        if (covering == null) {
            return null;
        }
        Predicate<Document> matches = values -> documentMatchesQuery(values, query);
        return inScanOrder
            ? covering.index().coveredProjection(covering.prefix(), query, matches, fields, dataMap.getKeyType()::compare)
            : covering.index().coveredProjection(covering.prefix(), query, matches, fields).toList();
    }

    /**
     * Every document matching the filter, found through an index, in a scan's order: the index's order
     * would change what order-dependent stages ({@code $first}, {@code $push}, sums of fractions) answer.
     */
    synchronized List<Document> matching(Document query) {
        List<Document> documents = new ArrayList<>(queryDocuments(query, null, 0, 0, 0, null).collectDocuments());
        // H2 keeps a document under its _id: ordered as the map orders its keys.
        documents.sort(Comparator.comparing(document -> document.get("_id"), dataMap.getKeyType()::compare));
        return documents;
    }

    /**
     * An ordered index with the equality prefix the filter gives it, and the direction to walk it
     * (null: unordered); for a covering one, {@code walk} is the direction in which its own order is
     * the requested one (null: its matches must be sorted).
     */
    private record Candidate(OrderedIndex index, List<Object> prefix, Boolean reversed, Boolean walk) {
    }

    /**
     * How to read the candidates of a filter: by a unique index when it names one document; else, when
     * the filter has conditions beyond an equality prefix and an index holds every field it names,
     * by filtering that index's entries first and reading only the matching documents; else by the
     * index with the longest equality prefix, in the requested order when it has it; null: scan.
     */
    private Plan plan(Document query, Document orderBy) {
        if (query == null || query.isEmpty() || (orderBy != null && orderBy.containsKey("$natural"))) {
            // Upstream sorts no candidates by $natural (it reads the whole map in that order): a scan.
            return null;
        }
        for (Index<Object> index : indexesByName()) {
            if (index.isUnique()) {
                Plan plan = uniquePlan(index, query);
                if (plan == null) {
                    plan = uniqueInPlan(index, query);
                }
                if (plan != null) {
                    return plan;
                }
            }
        }
        Candidate walk = best(query, orderBy, false);
        if (walk == null) {
            return null;
        }
        if (walk.prefix().size() < query.size()) {
            Candidate covering = best(query, orderBy, true);
            if (covering != null && covering.prefix().size() >= walk.prefix().size()) {
                Predicate<Document> matches = values -> documentMatchesQuery(values, query);
                if (covering.walk() != null) {
                    // The index is in the requested order: its entries are filtered as they are walked,
                    // so a page reads the index only as far as its last match, and only its documents.
                    Stream<Object> positions = covering.index().coveredPositions(covering.prefix(), query, matches, covering.walk());
                    return new Plan(positions, true, covering.index(), covering.prefix());
                }
                if (covering.reversed() != null && orderBy != null && !orderBy.isEmpty()) {
                    // Matching entries put in order from their values: only the page's documents are read.
                    Stream<Object> positions = covering.index().coveredPositionsSorted(covering.prefix(), query, matches, orderBy);
                    return new Plan(positions, true, covering.index(), covering.prefix());
                }
                Stream<Object> positions = covering.index().coveredPositions(covering.prefix(), query, matches);
                return new Plan(positions, false, covering.index(), covering.prefix());
            }
        }
        boolean inOrder = walk.reversed() != null;
        return new Plan(walk.index().positions(walk.prefix(), query, inOrder && walk.reversed()), inOrder, walk.index(),
            walk.prefix());
    }

    /**
     * The ordered index with the longest equality prefix for the filter; among equals, one that walks
     * in {@code orderBy}'s order. With {@code covering}, only indexes that hold every field of the filter,
     * preferring one that holds the sort keys too (its {@code reversed} is then non-null).
     */
    private Candidate best(Document query, Document orderBy, boolean covering) {
        return best(query, orderBy, covering, List.of());
    }

    /** As {@link #best(Document, Document, boolean)}, among indexes that also hold {@code fields}. */
    private Candidate best(Document query, Document orderBy, boolean covering, List<String> fields) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        Candidate best = null;
        // By name: which of two equally good indexes serves a query never depends on the order H2
        // happens to list them in after a restart.
        for (Index<Object> index : indexesByName()) {
            if (!(index instanceof OrderedIndex ordered) || (covering && !ordered.covers(query))
                || !ordered.keyNames().containsAll(fields)) {
                continue;
            }
            List<Object> prefix = new ArrayList<>();
            for (String key : ordered.keyNames()) {
                Object value = prefixValue(key, query);
                if (value == NOT_EQUALITY) {
                    break;
                }
                prefix.add(value);
            }
            if (prefix.isEmpty()) {
                continue;
            }
            // Walking: an index in the requested order is better. Covering: one that can sort the matches.
            Boolean reversed = covering ? (ordered.canSortBy(orderBy) ? Boolean.FALSE : null)
                : walkDirection(ordered, prefix.size(), orderBy);
            Boolean walk = covering && orderBy != null && !orderBy.isEmpty() && !ordered.isMultikey()
                ? walkDirection(ordered, prefix.size(), orderBy) : null;
            if (best == null || prefix.size() > best.prefix().size()
                || (prefix.size() == best.prefix().size() && rank(reversed, walk) > rank(best.reversed(), best.walk()))) {
                best = new Candidate(ordered, prefix, reversed, walk);
            }
        }
        return best;
    }

    /** Among candidates with equal prefixes: one walked in order, then one whose matches can be sorted. */
    private static int rank(Boolean reversed, Boolean walk) {
        return walk != null ? 2 : reversed != null ? 1 : 0;
    }

    private static Plan uniquePlan(Index<Object> index, Document query) {
        Document lookup = new Document();
        for (String key : index.getKeys().stream().map(k -> k.getKey()).toList()) {
            Object value = equalityValue(query.get(key), query.containsKey(key));
            if (value == NOT_EQUALITY) {
                return null;
            }
            lookup.put(key, value);
        }
        if (!index.canHandle(lookup)) {
            return null;
        }
        Stream<Object> positions = StreamSupport.stream(index.getPositions(lookup).spliterator(), false);
        // At most one document: any order is the requested order.
        return new Plan(positions, true, null, null);
    }

    /**
     * {@code {key: {$in: [values]}}} on a unique index of one key: a lookup per value, each document
     * once (two values may name one, as 1 and 1.0 do), in the order a scan would meet them. Null when
     * an element is not a plain value ($in's null, regular expressions and arrays have their own rules).
     */
    private Plan uniqueInPlan(Index<Object> index, Document query) {
        if (index.getKeys().size() != 1) {
            return null;
        }
        String key = index.getKeys().get(0).getKey();
        if (!(query.get(key) instanceof Document condition) || condition.size() != 1
            || !(condition.get("$in") instanceof Collection<?> values)) {
            return null;
        }
        Set<Object> positions = new TreeSet<>(dataMap.getKeyType()::compare);
        for (Object element : values) {
            // An element is a value to equal, never an operator: {$eq: 1} in an $in is a document.
            Object value = element instanceof Document ? NOT_EQUALITY : equalityValue(element, true);
            if (value == NOT_EQUALITY) {
                return null;
            }
            Document lookup = new Document(key, value);
            if (!index.canHandle(lookup)) {
                return null;
            }
            index.getPositions(lookup).forEach(positions::add);
        }
        return new Plan(positions.stream(), positions.size() <= 1, null, null);
    }

    /**
     * The equality a key of an ordered index bounds its range by. Null included: null and a missing
     * value are one key in the index's order, so {@code supersededBy: null} (the latest versions) walks
     * the null-or-missing entries, as MongoDB's bounds [null, null] do; an array holding null has such
     * an entry too, and {@code []} (its own key) is rightly left out. Not on a dotted key: an array on
     * the path has its own null rule.
     */
    private static Object prefixValue(String key, Document query) {
        Object condition = query.get(key);
        boolean isNull = condition == null
            || (condition instanceof Document document && document.size() == 1 && document.containsKey("$eq")
                && document.get("$eq") == null);
        if (isNull && query.containsKey(key) && !key.contains(".")) {
            return null;
        }
        return equalityValue(condition, query.containsKey(key));
    }

    /** The value of {@code field: value} or {@code field: {$eq: value}}; NOT_EQUALITY for anything else. */
    static Object equalityValue(Object value, boolean present) {
        if (!present || value == null) {
            // Null also matches a missing field; leave that to the scan.
            return NOT_EQUALITY;
        }
        if (value instanceof Document document) {
            if (document.size() == 1 && document.containsKey("$eq")) {
                return equalityValue(document.get("$eq"), true);
            }
            return NOT_EQUALITY;
        }
        if (value instanceof Collection || value instanceof Map || value instanceof BsonRegularExpression
            || value instanceof Pattern) {
            return NOT_EQUALITY;
        }
        return value;
    }

    /**
     * Whether walking the index after an equality prefix of {@code prefixLength} keys yields
     * {@code orderBy}: FALSE forwards, TRUE backwards, null when it cannot (the candidates are sorted).
     */
    private static Boolean walkDirection(OrderedIndex index, int prefixLength, Document orderBy) {
        if (orderBy == null || orderBy.isEmpty()) {
            return Boolean.FALSE;
        }
        List<String> keys = index.keyNames();
        int next = prefixLength;
        Boolean forward = null;
        int remaining = orderBy.size();
        for (Map.Entry<String, Object> sort : orderBy.entrySet()) {
            remaining--;
            if (!(sort.getValue() instanceof Number direction)) {
                return null;
            }
            boolean ascending = direction.doubleValue() > 0;
            boolean thisForward;
            if (next < keys.size() && sort.getKey().equals(keys.get(next))) {
                thisForward = ascending == index.isAscending(next);
                next++;
            } else if (keys.subList(0, prefixLength).contains(sort.getKey()) && !index.isMultikey()) {
                // Equal in every candidate: no effect on the order. Not when the key may hold an array:
                // its equality matches one element, and the sort compares the array's least or greatest.
                continue;
            } else if (sort.getKey().equals("_id") && remaining == 0 && next == keys.size()) {
                // Ties are kept in _id order, in the direction of the last key.
                thisForward = ascending == index.isAscending(keys.size() - 1);
            } else {
                return null;
            }
            if (forward != null && forward != thisForward) {
                return null;
            }
            forward = thisForward;
        }
        return forward == null ? Boolean.FALSE : Boolean.valueOf(!forward);
    }
}
