package damageiq.embeddeddb;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

/**
 * A filter compiled once per query into a test on an index entry's values, for the operators a list
 * search and its counts use: equality, {@code $eq}, {@code $exists}, {@code $regex} (compiled once, with
 * upstream's flags) and {@code $and}/{@code $or}/{@code $nor} of those. Upstream's matcher builds each
 * regular expression again for every document it tests, which made a search cost microseconds per entry.
 * Anything else is not compiled (null) and the caller falls back to upstream's matcher.
 */
final class CoveredFilter {

    private CoveredFilter() {
    }

    /**
     * The filter as a test on values in the order of {@code names}; null when an operator is not
     * supported. The first {@code prefixLength} names are the equality prefix the caller's range
     * already guarantees: their equalities are not tested again.
     */
    static Predicate<List<Object>> compile(Document query, List<String> names, int prefixLength) {
        List<Predicate<List<Object>>> all = new ArrayList<>();
        for (Map.Entry<String, Object> condition : query.entrySet()) {
            int index = names.indexOf(condition.getKey());
            if (index >= 0 && index < prefixLength && !(condition.getValue() instanceof Document)) {
                continue;
            }
            Predicate<List<Object>> test = compileCondition(condition.getKey(), condition.getValue(), names);
            if (test == null) {
                return null;
            }
            all.add(test);
        }
        return values -> {
            for (Predicate<List<Object>> test : all) {
                if (!test.test(values)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static boolean anyMatches(List<Predicate<List<Object>>> parts, List<Object> values) {
        for (Predicate<List<Object>> p : parts) {
            if (p.test(values)) {
                return true;
            }
        }
        return false;
    }

    private static Predicate<List<Object>> compileCondition(String field, Object condition, List<String> names) {
        if (field.equals("$and") || field.equals("$or") || field.equals("$nor")) {
            if (!(condition instanceof Collection<?> clauses) || clauses.isEmpty()) {
                return null;
            }
            List<Predicate<List<Object>>> parts = new ArrayList<>();
            for (Object clause : clauses) {
                Predicate<List<Object>> part = clause instanceof Document document ? compile(document, names, 0) : null;
                if (part == null) {
                    return null;
                }
                parts.add(part);
            }
            // Plain loops: this runs for every entry of a search (a stream per entry cost more than the test).
            return switch (field) {
                case "$and" -> values -> {
                    for (Predicate<List<Object>> p : parts) {
                        if (!p.test(values)) {
                            return false;
                        }
                    }
                    return true;
                };
                case "$or" -> values -> anyMatches(parts, values);
                default -> values -> !anyMatches(parts, values);
            };
        }
        int index = names.indexOf(field);
        if (index < 0) {
            return null;
        }
        if (BsonRegularExpression.isRegularExpression(condition)) {
            if (condition instanceof Document document && !document.keySet().stream().allMatch(k -> k.equals("$regex") || k.equals("$options"))) {
                return null;
            }
            BsonRegularExpression regex = BsonRegularExpression.convertToRegularExpression(condition);
            String literal = literalText(regex);
            if (literal != null) {
                return values -> values.get(index) instanceof String text && containsIgnoringCase(text, literal);
            }
            return values -> values.get(index) instanceof String text && regex.matcher(text).find();
        }
        if (condition instanceof Document document) {
            if (document.size() != 1) {
                return null;
            }
            Object exists = document.get("$exists");
            if (exists instanceof Boolean || exists instanceof Number) {
                boolean wanted = exists instanceof Boolean b ? b : ((Number) exists).doubleValue() != 0;
                return values -> !(values.get(index) instanceof Missing) == wanted;
            }
            if (document.containsKey("$eq")) {
                return equality(index, document.get("$eq"));
            }
            return null;
        }
        return equality(index, condition);
    }

    /**
     * The text a case-insensitive pattern without metacharacters (escaped ones allowed) stands for —
     * what every list search sends — or null. Such a pattern matches where the text occurs ignoring
     * case, which {@link #containsIgnoringCase} tests several times faster than the regex engine,
     * comparing characters the way upstream's flags do (CASE_INSENSITIVE with UNICODE_CASE).
     */
    static String literalText(BsonRegularExpression regex) {
        if (!regex.getOptions().equals("i")) {
            return null;
        }
        String pattern = regex.getPattern();
        StringBuilder text = new StringBuilder(pattern.length());
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                if (i + 1 == pattern.length() || Character.isLetterOrDigit(pattern.charAt(i + 1))) {
                    return null;
                }
                text.append(pattern.charAt(++i));
            } else if (".*+?^$()[]{}|".indexOf(c) >= 0 || Character.isSurrogate(c)) {
                return null;
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }

    static boolean containsIgnoringCase(String text, String literal) {
        if (literal.isEmpty()) {
            return true;
        }
        // Only where the first character matches (as regionMatches compares: upper case, then the
        // lower case of that) is the whole literal compared.
        char first = literal.charAt(0);
        char upper = Character.toUpperCase(first);
        char lower = Character.toLowerCase(upper);
        int last = text.length() - literal.length();
        for (int i = 0; i <= last; i++) {
            char c = text.charAt(i);
            if (c != first) {
                char u = Character.toUpperCase(c);
                if (u != upper && Character.toLowerCase(u) != lower) {
                    continue;
                }
            }
            if (text.regionMatches(true, i, literal, 0, literal.length())) {
                return true;
            }
        }
        return false;
    }

    private static Predicate<List<Object>> equality(int index, Object wanted) {
        if (wanted == null || wanted instanceof Document || wanted instanceof Collection || wanted instanceof Missing) {
            // Null matches missing fields too, and documents or arrays have their own rules: upstream decides.
            return null;
        }
        return values -> {
            Object value = values.get(index);
            return value != null && !(value instanceof Missing) && OrderedIndex.compareValues(value, wanted) == 0;
        };
    }
}
