package damageiq.embeddeddb;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Decimal128;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.MinKey;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.IndexBuildFailedException;
import de.bwaldvogel.mongo.exception.MongoServerError;

/**
 * A non-unique (compound) index: entries sorted by the index's keys in their declared directions,
 * then by position. On H2 a document's position is its {@code _id}, and ties are ordered in the
 * direction of the last key, so {@code {ownerId: 1, createdAt: -1}} serves the sort
 * {@code {createdAt: -1, _id: -1}} exactly.
 *
 * <p>Entries hold the documents' own values (a missing field as {@code Missing}), so a count whose
 * filter names only index keys is answered from the index without reading a document.
 *
 * <p>Kept in the MVStore (decision 0028): the entries in a map of their own, beside the documents, so
 * one commit writes a document and its entries, and memory is bounded by the page cache, not by the
 * data. Built from the documents once, when the map is new or was never completed (an index created
 * over documents, a data directory written before entries were kept); a complete map is opened as it is.
 */
final class OrderedIndex extends Index<Object> {

    /** Sorts before or after every value of one key, to bound a prefix range. */
    private enum Bound { LOW, HIGH }

    /**
     * The key of an empty array, as MongoDB stores it (undefined): after MinKey, before null and every
     * other value. Without an entry a document with {@code []} under a key would be invisible to every
     * plan that walks this index.
     */
    enum EmptyArray { KEY }

    /** An entry: the key values in the index's order, then the document's position ({@code _id}). */
    record Entry(List<Object> values, Object position) {
    }

    /** Documents read between two commits while an index is built: uncommitted changes stay in the heap. */
    private static final int BUILD_BATCH = 5_000;
    private static final String COMPLETE = "complete";
    private static final String MULTIKEY = "multikey";

    private static final ValueComparator VALUES = ValueComparator.asc();

    /** Entries read by every walk of every ordered index since the start (serverStatus reports it). */
    private static final LongAdder ENTRIES_READ = new LongAdder();

    private final boolean[] ascending;
    private final MVStore store;
    /** The entries, in the index's order (a range is counted from ranks, without walking it). */
    private final MVMap<Entry, Boolean> entries;
    /**
     * Whether the entries are complete and whether some document has an array under a key; and, per
     * first-key value (an owner's id or text) and other key, how many entries have that key present (not
     * missing): the summary cards ("with a company", "with a phone") count that on every list page, and
     * the index's order (null and missing are one key) cannot say it.
     */
    private final MVMap<String, Object> state;
    private volatile boolean multikey;
    private volatile boolean complete;
    /** While {@link #build} runs: the present counts, written to the state map once at its end. */
    private Map<String, Long> buildingCounts;

    /** The index whose entries are the maps {@code mapName} and {@code mapName + "._state"} of the store. */
    OrderedIndex(String name, List<IndexKey> keys, boolean sparse, MVStore store, String mapName) {
        super(name, keys, sparse);
        ascending = new boolean[keys.size()];
        for (int i = 0; i < ascending.length; i++) {
            ascending[i] = keys.get(i).isAscending();
        }
        this.store = store;
        entries = store.openMap(mapName, new MVMap.Builder<Entry, Boolean>()
            .keyType(new IndexEntryType(keys.size(), this::compare))
            .valueType(IndexEntryType.Marker.INSTANCE));
        state = store.openMap(mapName + "._state");
        complete = Boolean.TRUE.equals(state.get(COMPLETE));
        multikey = Boolean.TRUE.equals(state.get(MULTIKEY));
    }

    /** Whether the entries are all there (else {@link #build} fills them). */
    boolean isComplete() {
        return complete;
    }

    /**
     * Fills the entries of {@code indexes} (of one collection) from its documents in one read of them,
     * committing every {@link #BUILD_BATCH} documents and marking each index complete last, so a build
     * cut short starts again at the next open. Progress goes to {@link Launcher#opening} while the
     * database opens.
     */
    static void build(List<OrderedIndex> indexes, MVMap<Object, Document> documents, MongoCollection<Object> collection) {
        for (OrderedIndex index : indexes) {
            index.entries.clear();
            index.state.clear();
            index.multikey = false;
            index.buildingCounts = new HashMap<>();
        }
        long total = documents.sizeAsLong();
        String what = (indexes.size() == 1 ? "building index " : "building indexes ")
            + String.join(", ", indexes.stream().map(OrderedIndex::getName).toList()) + " of " + collection.getFullName() + ": ";
        Launcher.opening(what + "0 of " + total + " documents");
        long done = 0;
        long reported = System.nanoTime();
        Cursor<Object, Document> cursor = documents.cursor(null);
        OrderedIndex current = null;
        try {
            while (cursor.hasNext()) {
                Object position = cursor.next();
                Document document = cursor.getValue();
                for (OrderedIndex index : indexes) {
                    current = index;
                    index.add(document, position, collection);
                }
                if (++done % BUILD_BATCH == 0) {
                    indexes.get(0).store.commit();
                }
                if (System.nanoTime() - reported > 1_000_000_000L) {
                    reported = System.nanoTime();
                    Launcher.opening(what + done + " of " + total + " documents");
                }
            }
        } catch (MongoServerError e) {
            // Refused (two array keys in one document): the index is not created, nor are its maps kept.
            indexes.forEach(index -> index.buildingCounts = null);
            current.drop();
            throw new IndexBuildFailedException(e, collection);
        }
        for (OrderedIndex index : indexes) {
            index.state.putAll(index.buildingCounts);
            index.buildingCounts = null;
            index.state.put(COMPLETE, Boolean.TRUE);
            index.complete = true;
        }
        Launcher.opening(what + done + " of " + total + " documents");
    }

    private int compare(Entry a, Entry b) {
        for (int i = 0; i < ascending.length; i++) {
            int c = compareKey(a.values.get(i), b.values.get(i), ascending[i]);
            if (c != 0) {
                return c;
            }
        }
        if (a.position instanceof Bound || b.position instanceof Bound) {
            return compareKey(a.position, b.position, true);
        }
        int c = compareValues(a.position, b.position);
        return ascending[ascending.length - 1] ? c : -c;
    }

    private static int compareKey(Object a, Object b, boolean ascending) {
        if (a instanceof Bound || b instanceof Bound) {
            if (a == b) {
                return 0;
            }
            if (a == Bound.LOW || b == Bound.HIGH) {
                return -1;
            }
            return 1;
        }
        int c = compareValues(a, b);
        return ascending ? c : -c;
    }

    /** Never empty for upstream's addIndex, which would fill it with two reads of every document: see {@link #build}. */
    @Override
    public boolean isEmpty() {
        return false;
    }

    /**
     * MongoDB's order of values. The common key types compare directly (same order as
     * ValueComparator, without its type dispatch: this runs on every step of every index walk; a
     * status or a title is text). Numbers compare exactly: upstream truncates a double compared with a
     * long beyond an int (3000000000 and 3000000000.5 would be one key).
     */
    @SuppressWarnings("unchecked")
    static int compareValues(Object a, Object b) {
        if (a != null && b != null && a.getClass() == b.getClass()
            && (a instanceof ObjectId || a instanceof String || a instanceof Date || a instanceof Boolean)) {
            return ((Comparable<Object>) a).compareTo(b);
        }
        if (a == EmptyArray.KEY || b == EmptyArray.KEY) {
            if (a == b) {
                return 0;
            }
            Object other = a == EmptyArray.KEY ? b : a;
            int order = other instanceof MinKey ? 1 : -1;
            return a == EmptyArray.KEY ? order : -order;
        }
        if (a instanceof Number x && b instanceof Number y && !(a instanceof Decimal128) && !(b instanceof Decimal128)) {
            return compareNumbers(x, y);
        }
        return VALUES.compare(a, b);
    }

    private static boolean integral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
    }

    /** Two numbers by value, exactly; -0.0 equals 0, and NaN sorts after every number (as upstream's doubles). */
    static int compareNumbers(Number x, Number y) {
        if (integral(x) && integral(y)) {
            return Long.compare(x.longValue(), y.longValue());
        }
        double dx = x.doubleValue();
        double dy = y.doubleValue();
        if (Double.isNaN(dx) || Double.isNaN(dy)) {
            return Boolean.compare(Double.isNaN(dx), Double.isNaN(dy));
        }
        boolean exact = (!integral(x) || Math.abs(x.longValue()) <= (1L << 53))
            && (!integral(y) || Math.abs(y.longValue()) <= (1L << 53));
        if (exact || Double.isInfinite(dx) || Double.isInfinite(dy)) {
            return dx < dy ? -1 : dx > dy ? 1 : 0;
        }
        BigDecimal bx = integral(x) ? BigDecimal.valueOf(x.longValue()) : new BigDecimal(dx);
        BigDecimal by = integral(y) ? BigDecimal.valueOf(y.longValue()) : new BigDecimal(dy);
        return bx.compareTo(by);
    }

    /** Whether some document has an array under a key (then one document has several entries). */
    boolean isMultikey() {
        return multikey;
    }

    /** The index's key names in order. */
    List<String> keyNames() {
        return keys();
    }

    boolean isAscending(int key) {
        return ascending[key];
    }

    /**
     * Positions whose first {@code prefix.size()} keys equal {@code prefix}, in index order (or
     * reversed); lazily, so a limited query stops early.
     */
    Stream<Object> positions(List<Object> prefix, Document query, boolean reversed) {
        return range(prefix, query, reversed).map(Entry::position);
    }

    /**
     * The entries with the equality prefix, from its first (or last) one, read lazily from the map's
     * pages (a snapshot: writes after the walk began do not change it); narrowed to the filter's range
     * on the key after the prefix (a cursor page's {@code createdAt: {$lte: …}}), so a walk starts at
     * the range's bound instead of reading every entry before it. Not with an array under a key: the
     * matcher may compare the array whole, where the entries hold its elements.
     */
    private Stream<Entry> range(List<Object> prefix, Document query, boolean reversed) {
        Entry low = bound(prefix, Bound.LOW);
        Entry high = bound(prefix, Bound.HIGH);
        if (query != null && !multikey && prefix.size() < ascending.length
            && query.get(keys().get(prefix.size())) instanceof Document operators) {
            for (Map.Entry<String, Object> operator : operators.entrySet()) {
                Entry edge = rangeEdge(prefix, operator.getKey(), operator.getValue());
                if (edge == null) {
                    continue;
                }
                if (startsWalk(prefix.size(), operator.getKey())) {
                    low = compare(edge, low) > 0 ? edge : low;
                } else {
                    high = compare(edge, high) < 0 ? edge : high;
                }
            }
            if (compare(low, high) >= 0) {
                return Stream.empty();
            }
        }
        Cursor<Entry, Boolean> cursor = reversed ? entries.cursor(high, low, true) : entries.cursor(low, high, false);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(cursor, Spliterator.ORDERED | Spliterator.NONNULL), false)
            .peek(entry -> ENTRIES_READ.increment());
    }

    /** How many index entries walks have read since the engine started: what a plan costs, observable. */
    static long entriesRead() {
        return ENTRIES_READ.sum();
    }

    /** Whether {@code $gt}/{@code $gte} (or, on a descending key, {@code $lt}/{@code $lte}) bounds where a walk starts. */
    private boolean startsWalk(int key, String operator) {
        return operator.startsWith("$gt") == ascending[key];
    }

    /**
     * The search key at a range operator's bound on the key after {@code prefix}: before the entries
     * equal to the bound when the range includes them at its start or excludes them at its end, else
     * after them; null for another operator or a value whose order is not certain to be the matcher's
     * (only dates and ids: their comparison is the same one, and MongoDB's type order puts every other
     * type wholly on one side, so no entry the filter can match is cut off).
     */
    private Entry rangeEdge(List<Object> prefix, String operator, Object value) {
        boolean inclusive = operator.equals("$gte") || operator.equals("$lte");
        if (!(inclusive || operator.equals("$gt") || operator.equals("$lt"))
            || !(value instanceof Instant || value instanceof Date || value instanceof ObjectId)) {
            return null;
        }
        List<Object> values = new ArrayList<>(prefix);
        values.add(value);
        return bound(values, startsWalk(prefix.size(), operator) == inclusive ? Bound.LOW : Bound.HIGH);
    }

    /** The search key before (LOW) or after (HIGH) every entry with the prefix; never stored. */
    private Entry bound(List<Object> prefix, Bound side) {
        List<Object> values = new ArrayList<>(prefix);
        while (values.size() < ascending.length) {
            values.add(side);
        }
        return new Entry(values, side);
    }

    /** How many entries sort before {@code bound} (a key that is never in the map). */
    private long rank(Entry bound) {
        return -entries.getKeyIndex(bound) - 1;
    }

    /**
     * The entries of a document: one, or with an array under a key one per element (upstream's
     * multikey expansion, which refuses two array keys with code 171), and for an empty array one
     * whose key is {@link EmptyArray#KEY}, as MongoDB indexes {@code []}.
     */
    private List<Entry> entriesOf(Document document, Object position) {
        List<Object> values = keyValues(document);
        if (!hasArray(values)) {
            return List.of(new Entry(values, position));
        }
        List<Entry> result = new ArrayList<>();
        for (KeyValue keyValue : getKeyValues(document)) {
            List<Object> elementValues = new ArrayList<>(keyValue.size());
            keyValue.forEach(elementValues::add);
            result.add(new Entry(elementValues, position));
        }
        if (result.isEmpty()) {
            // The one array is empty (two arrays were refused above): a single entry with its key undefined.
            List<Object> undefined = new ArrayList<>(ascending.length);
            for (String key : keys()) {
                Object value = Utils.getSubdocumentValueCollectionAware(document, key);
                undefined.add(value instanceof Collection ? EmptyArray.KEY : value);
            }
            result.add(new Entry(undefined, position));
        }
        return result;
    }

    /** The document's value under each key (a missing one as {@code Missing}; an array, or one on the path, whole). */
    private List<Object> keyValues(Document document) {
        List<Object> values = new ArrayList<>(ascending.length);
        for (String key : keys()) {
            Object value = document;
            for (String part : key.split("\\.")) {
                if (value instanceof Collection) {
                    break;
                }
                value = value instanceof Document parent && parent.containsKey(part) ? parent.get(part) : Missing.getInstance();
            }
            values.add(value);
        }
        return values;
    }

    private static boolean hasArray(List<Object> values) {
        return values.stream().anyMatch(Collection.class::isInstance);
    }

    /**
     * Whether {@code query} can be decided from this index's entries alone: every field it names
     * (also inside {@code $and}, {@code $or}, {@code $nor}) is a top-level key of the index, no other
     * top-level operator is used, and no document has an array under a key.
     */
    boolean covers(Document query) {
        return !multikey && fieldsCovered(query, keys());
    }

    private static boolean fieldsCovered(Document query, List<String> names) {
        for (Map.Entry<String, Object> condition : query.entrySet()) {
            String field = condition.getKey();
            if (field.equals("$and") || field.equals("$or") || field.equals("$nor")) {
                if (!(condition.getValue() instanceof Collection<?> clauses)) {
                    return false;
                }
                for (Object clause : clauses) {
                    if (!(clause instanceof Document document) || !fieldsCovered(document, names)) {
                        return false;
                    }
                }
            } else if (field.startsWith("$") || field.contains(".") || !names.contains(field)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Entries with the equality prefix whose values satisfy {@code matches}, as documents holding
     * just the index's fields (a missing field left out), in index order.
     */
    Stream<Object> coveredPositions(List<Object> prefix, Document query, Predicate<Document> matches) {
        return covered(prefix, query, matches, false).map(Entry::position);
    }

    /**
     * As {@link #coveredPositions}, walking the index backwards when {@code reversed}: lazily, so a
     * caller that needs the first matches in the index's order stops reading at the last one it needs.
     */
    Stream<Object> coveredPositions(List<Object> prefix, Document query, Predicate<Document> matches, boolean reversed) {
        return covered(prefix, query, matches, reversed).map(Entry::position);
    }

    /**
     * Whether {@code orderBy} sorts on this index's keys alone (and {@code _id}, the position), so the
     * entries a covered filter keeps can be put in order before any document is read.
     */
    boolean canSortBy(Document orderBy) {
        if (orderBy == null || orderBy.isEmpty() || multikey) {
            return false;
        }
        for (Map.Entry<String, Object> sort : orderBy.entrySet()) {
            if (!(sort.getValue() instanceof Number) || (!sort.getKey().equals("_id") && !keys().contains(sort.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** As {@link #coveredPositions}, in {@code orderBy}'s order (see {@link #canSortBy}). */
    Stream<Object> coveredPositionsSorted(List<Object> prefix, Document query, Predicate<Document> matches, Document orderBy) {
        Comparator<Entry> order = null;
        for (Map.Entry<String, Object> sort : orderBy.entrySet()) {
            int index = keys().indexOf(sort.getKey());
            boolean descending = ((Number) sort.getValue()).doubleValue() < 0;
            Comparator<Entry> byKey = index < 0
                ? (a, b) -> compareValues(a.position, b.position)
                : (a, b) -> compareValues(a.values.get(index), b.values.get(index));
            byKey = descending ? byKey.reversed() : byKey;
            order = order == null ? byKey : order.thenComparing(byKey);
        }
        List<Entry> matching = new ArrayList<>(covered(prefix, query, matches, false).toList());
        matching.sort(order);
        return matching.stream().map(Entry::position);
    }

    /** How many entries have the equality prefix: from the ranks of its bounds, without walking it. */
    long countRange(List<Object> prefix) {
        return rank(bound(prefix, Bound.HIGH)) - rank(bound(prefix, Bound.LOW));
    }

    private static boolean countable(Object value) {
        return value instanceof ObjectId || value instanceof String;
    }

    /**
     * How many entries have {@code field} present (or missing) among those whose first key equals
     * {@code leading}; null when the counts do not say (another key, a value they do not keep).
     */
    Long countPresent(Object leading, String field, boolean present) {
        int key = keys().indexOf(field);
        if (key < 1 || !countable(leading) || multikey) {
            return null;
        }
        long total = countRange(List.of(leading));
        Object with = state.get(presentKey(key, leading));
        long withField = with == null ? 0 : ((Number) with).longValue();
        return present ? withField : total - withField;
    }

    /** The state's key of a present count: the key's number and the first key's value, typed. */
    private static String presentKey(int key, Object leading) {
        return leading instanceof ObjectId id ? key + ":o:" + id.getHexData() : key + ":s:" + leading;
    }

    private void added(Entry entry) {
        if (entries.put(entry, Boolean.TRUE) == null && countable(entry.values.get(0))) {
            track(entry, 1);
        }
    }

    private void removed(Entry entry) {
        if (entries.remove(entry) != null && countable(entry.values.get(0))) {
            track(entry, -1);
        }
    }

    private void track(Entry entry, int change) {
        Object leading = entry.values.get(0);
        for (int i = 1; i < ascending.length; i++) {
            if (buildingCounts != null && !(entry.values.get(i) instanceof Missing)) {
                buildingCounts.merge(presentKey(i, leading), (long) change, Long::sum);
            } else if (!(entry.values.get(i) instanceof Missing)) {
                String key = presentKey(i, leading);
                Object before = state.get(key);
                long after = (before == null ? 0 : ((Number) before).longValue()) + change;
                if (after == 0) {
                    state.remove(key);
                } else {
                    state.put(key, after);
                }
            }
        }
    }

    private void markMultikey() {
        if (!multikey) {
            multikey = true;
            state.put(MULTIKEY, Boolean.TRUE);
        }
    }

    /**
     * As {@link #coveredPositions}, each entry as a document of {@code fields} (index keys; a missing
     * value left out): a covered query's answer, without reading a document.
     */
    Stream<Document> coveredProjection(List<Object> prefix, Document query, Predicate<Document> matches, List<String> fields) {
        return covered(prefix, query, matches, false).map(projector(fields));
    }

    /**
     * As {@link #coveredProjection}, in the order of {@code positionOrder}: given the collection's
     * order of positions, the order a scan meets the documents in, so whatever the caller computes from
     * them ({@code $first}, {@code $push}, a sum of fractions) comes out as a scan's would.
     */
    List<Document> coveredProjection(List<Object> prefix, Document query, Predicate<Document> matches, List<String> fields,
                                     Comparator<Object> positionOrder) {
        List<Entry> matching = new ArrayList<>(covered(prefix, query, matches, false).toList());
        matching.sort((a, b) -> positionOrder.compare(a.position, b.position));
        return matching.stream().map(projector(fields)).toList();
    }

    /** An entry as a document of {@code fields} (index keys; a missing value left out). */
    private Function<Entry, Document> projector(List<String> fields) {
        int[] at = fields.stream().mapToInt(keys()::indexOf).toArray();
        return entry -> {
            Document projected = new Document();
            for (int i = 0; i < at.length; i++) {
                Object value = entry.values.get(at[i]);
                if (!(value instanceof Missing)) {
                    projected.put(fields.get(i), value);
                }
            }
            return projected;
        };
    }

    /** How many entries with the equality prefix satisfy {@code matches} on their values alone. */
    long countCovered(List<Object> prefix, Document query, Predicate<Document> matches, long skip, long limit) {
        Stream<Entry> matching = covered(prefix, query, matches, false).skip(skip);
        return (limit > 0 ? matching.limit(limit) : matching).count();
    }

    private Stream<Entry> coveredByMatcher(List<Object> prefix, Document query, Predicate<Document> matches, boolean reversed) {
        List<String> names = keys();
        return candidates(prefix, query, reversed).filter(entry -> {
            Document values = new Document();
            for (int i = 0; i < names.size(); i++) {
                Object value = entry.values.get(i);
                if (!(value instanceof Missing)) {
                    values.put(names.get(i), value);
                }
            }
            return matches.test(values);
        });
    }

    /**
     * The entries with the equality prefix whose values satisfy the filter, in index order; the filter
     * compiled once when it can be, else tested by {@code matches} (upstream's matcher).
     */
    private Stream<Entry> covered(List<Object> prefix, Document query, Predicate<Document> matches, boolean reversed) {
        Predicate<List<Object>> compiled = CoveredFilter.compile(query, keys(), prefix.size());
        if (compiled == null) {
            return coveredByMatcher(prefix, query, matches, reversed);
        }
        return candidates(prefix, query, reversed).filter(entry -> compiled.test(entry.values));
    }

    /**
     * The entries the filter can match, in index order: the equality prefix's range, or, when every
     * clause of a top-level {@code $or} has equalities on the keys after the prefix (a quote's
     * {@code $or} of damage type and severity), only those clauses' ranges, as MongoDB bounds an index
     * scan by an $or. A superset of the matches either way: the caller tests the whole filter.
     */
    private Stream<Entry> candidates(List<Object> prefix, Document query, boolean reversed) {
        List<List<Object>> clausePrefixes = orPrefixes(prefix, query);
        if (clausePrefixes == null) {
            return range(prefix, query, reversed);
        }
        if (reversed) {
            clausePrefixes = new ArrayList<>(clausePrefixes);
            Collections.reverse(clausePrefixes);
        }
        return clausePrefixes.stream().flatMap(clausePrefix -> range(clausePrefix, query, reversed));
    }

    /**
     * The prefix extended by each $or clause's equalities on as many following keys as every clause
     * has, sorted in index order without repeats (so the ranges are disjoint and walked in order);
     * null when some clause has no equality on the key after the prefix.
     */
    private List<List<Object>> orPrefixes(List<Object> prefix, Document query) {
        if (!(query.get("$or") instanceof Collection<?> clauses) || clauses.isEmpty()) {
            return null;
        }
        List<List<Object>> extended = new ArrayList<>();
        int common = ascending.length - prefix.size();
        for (Object clause : clauses) {
            if (!(clause instanceof Document conditions)) {
                return null;
            }
            List<Object> values = new ArrayList<>(prefix);
            for (int key = prefix.size(); key < prefix.size() + common; key++) {
                String name = keys().get(key);
                Object value = IndexedH2Collection.equalityValue(conditions.get(name), conditions.containsKey(name));
                if (value == IndexedH2Collection.NOT_EQUALITY) {
                    break;
                }
                values.add(value);
            }
            common = Math.min(common, values.size() - prefix.size());
            if (common == 0) {
                return null;
            }
            extended.add(values);
        }
        int length = prefix.size() + common;
        Comparator<List<Object>> indexOrder = (a, b) -> {
            for (int i = 0; i < length; i++) {
                int c = compareKey(a.get(i), b.get(i), ascending[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        NavigableSet<List<Object>> distinct = new TreeSet<>(indexOrder);
        extended.forEach(values -> distinct.add(values.subList(0, length)));
        return new ArrayList<>(distinct);
    }

    @Override
    public Object getPosition(Document document) {
        // Non-unique: the primary key index answers which position a document has.
        return null;
    }

    @Override
    public void checkAdd(Document document, MongoCollection<Object> collection) {
        // Non-unique: nothing can conflict, but two array keys are refused (171) before anything is stored.
        entriesOf(document, null);
    }

    @Override
    public void add(Document document, Object position, MongoCollection<Object> collection) {
        if (hasArray(keyValues(document))) {
            // An array under a key (even an empty one): no covered reads from now on.
            markMultikey();
        }
        entriesOf(document, position).forEach(this::added);
    }

    @Override
    public Object remove(Document document) {
        // H2 keeps a document under its _id; that is the position the entries were added with.
        Object position = document.get("_id");
        entriesOf(document, position).forEach(this::removed);
        return position;
    }

    @Override
    public boolean canHandle(Document query) {
        // Chosen by IndexedH2Collection, which also uses the sort order; upstream's planner never picks it.
        return false;
    }

    @Override
    public Iterable<Object> getPositions(Document query) {
        throw new UnsupportedOperationException("use positions(prefix, query, reversed)");
    }

    @Override
    public long getCount() {
        return entries.sizeAsLong();
    }

    @Override
    public long getDataSize() {
        return 0;
    }

    @Override
    public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {
        // Non-unique: nothing can conflict, but two array keys are refused (171) before anything changes.
        entriesOf(newDocument, null);
    }

    @Override
    public void updateInPlace(Document oldDocument, Document newDocument, Object position,
                              MongoCollection<Object> collection) {
        List<Entry> before = entriesOf(oldDocument, position);
        List<Entry> after = entriesOf(newDocument, position);
        if (hasArray(keyValues(newDocument))) {
            markMultikey();
        }
        if (!Objects.equals(before, after)) {
            before.forEach(this::removed);
            after.forEach(this::added);
        }
    }

    @Override
    public void drop() {
        // The index is gone (dropIndex, drop, dropDatabase): so are its maps.
        complete = false;
        if (!entries.isClosed()) {
            store.removeMap(entries);
        }
        if (!state.isClosed()) {
            store.removeMap(state);
        }
    }

    /** The maps' new names when the collection is renamed to {@code mapName}'s namespace. */
    void rename(String mapName) {
        store.renameMap(entries, mapName);
        store.renameMap(state, mapName + "._state");
    }
}
