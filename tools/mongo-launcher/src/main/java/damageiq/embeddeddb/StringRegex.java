package damageiq.embeddeddb;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.regex.PatternSyntaxException;

import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;

/**
 * {@code $regex} as MongoDB matches it: strings only (a string, or a string element of an array). Upstream's
 * matcher tests {@code value.toString()}, so a number, a date or an ObjectId could match while the
 * covered filter ({@link CoveredFilter}) never matched them: one query, two answers by plan. Here a
 * filter with a regular expression is compiled into a test whose regular-expression conditions are ours
 * and whose other conditions go to upstream's matcher one field at a time ({@code $and}, {@code $or},
 * {@code $nor}, {@code $not}, {@code $in}, {@code $nin} and {@code $all} of regular expressions taken apart).
 * Regular expressions anywhere else ({@code $elemMatch}, a subdocument) stay upstream's.
 */
final class StringRegex {

    private StringRegex() {
    }

    /**
     * Every regular expression in the filter compiled before any document is read, so an invalid one is
     * refused whichever plan runs, also when nothing would be tested (MongoDB's codes).
     */
    static void validate(Object query) {
        if (query instanceof BsonRegularExpression || query instanceof Document d && d.containsKey("$regex")) {
            BsonRegularExpression regex = BsonRegularExpression.convertToRegularExpression(query);
            try {
                regex.matcher("");
            } catch (PatternSyntaxException e) {
                throw new MongoServerError(51091, "Location51091", "Regular expression is invalid: " + e.getDescription());
            } catch (IllegalArgumentException e) {
                throw new MongoServerError(51108, "Location51108", "invalid flag in regex options: " + regex.getOptions());
            }
        } else if (query instanceof Map<?, ?> document) {
            document.values().forEach(StringRegex::validate);
        } else if (query instanceof Collection<?> values) {
            values.forEach(StringRegex::validate);
        }
    }

    /**
     * The filter as a test on a document, with {@code upstream} deciding every condition without a
     * regular expression; null when the filter has no regular expression this class decides.
     */
    static Predicate<Document> compile(Document query, BiPredicate<Document, Document> upstream) {
        if (query == null || !hasRegex(query)) {
            return null;
        }
        return compileFilter(query, upstream);
    }

    private static boolean hasRegex(Object value) {
        if (value instanceof BsonRegularExpression || value instanceof Document d && d.containsKey("$regex")) {
            return true;
        }
        if (value instanceof Map<?, ?> document) {
            return document.values().stream().anyMatch(StringRegex::hasRegex);
        }
        return value instanceof Collection<?> values && values.stream().anyMatch(StringRegex::hasRegex);
    }

    private static Predicate<Document> compileFilter(Document query, BiPredicate<Document, Document> upstream) {
        List<Predicate<Document>> all = new ArrayList<>();
        for (Map.Entry<String, Object> condition : query.entrySet()) {
            all.add(compileCondition(condition.getKey(), condition.getValue(), upstream));
        }
        return and(all);
    }

    private static Predicate<Document> compileCondition(String field, Object condition,
                                                        BiPredicate<Document, Document> upstream) {
        Predicate<Document> byUpstream = upstream(new Document(field, condition), upstream);
        if (!hasRegex(condition)) {
            return byUpstream;
        }
        if (field.equals("$and") || field.equals("$or") || field.equals("$nor")) {
            if (!(condition instanceof Collection<?> clauses) || clauses.isEmpty()
                || !clauses.stream().allMatch(Document.class::isInstance)) {
                return byUpstream;
            }
            List<Predicate<Document>> parts = clauses.stream().map(c -> compileFilter((Document) c, upstream)).toList();
            return switch (field) {
                case "$and" -> and(parts);
                case "$or" -> or(parts);
                default -> or(parts).negate();
            };
        }
        if (field.startsWith("$")) {
            return byUpstream;
        }
        if (condition instanceof BsonRegularExpression regex) {
            return matches(field, regex);
        }
        if (!(condition instanceof Document operators) || !operators.keySet().stream().allMatch(k -> k.startsWith("$"))) {
            // A subdocument to equal: a regular expression in it is a value.
            return byUpstream;
        }
        List<Predicate<Document>> all = new ArrayList<>();
        Document rest = new Document();
        if (operators.containsKey("$regex")) {
            Document regex = new Document("$regex", operators.get("$regex"));
            if (operators.containsKey("$options")) {
                regex.put("$options", operators.get("$options"));
            }
            all.add(matches(field, BsonRegularExpression.convertToRegularExpression(regex)));
        }
        for (Map.Entry<String, Object> operator : operators.entrySet()) {
            String name = operator.getKey();
            Object operand = operator.getValue();
            if (name.equals("$regex") || name.equals("$options")) {
                continue;
            }
            Predicate<Document> test = switch (name) {
                case "$not" -> operand instanceof BsonRegularExpression || operand instanceof Document d && hasRegex(d)
                    ? compileCondition(field, operand, upstream).negate() : null;
                case "$in" -> hasRegex(operand) ? anyOf(field, operand, upstream) : null;
                case "$nin" -> hasRegex(operand) ? anyOf(field, operand, upstream).negate() : null;
                case "$all" -> hasRegex(operand) && operand instanceof Collection<?> values && !values.isEmpty()
                    ? and(values.stream().map(v -> compileCondition(field, v, upstream)).toList()) : null;
                default -> null;
            };
            if (test == null) {
                rest.put(name, operand);
            } else {
                all.add(test);
            }
        }
        if (!rest.isEmpty()) {
            all.add(upstream(new Document(field, rest), upstream));
        }
        return and(all);
    }

    /** {@code $in}: a regular expression element matches strings, the other elements as upstream's $in. */
    private static Predicate<Document> anyOf(String field, Object operand, BiPredicate<Document, Document> upstream) {
        if (!(operand instanceof Collection<?> values)) {
            return upstream(new Document(field, new Document("$in", operand)), upstream);
        }
        List<Predicate<Document>> any = new ArrayList<>();
        List<Object> others = new ArrayList<>();
        for (Object value : values) {
            if (value instanceof BsonRegularExpression regex) {
                any.add(matches(field, regex));
            } else {
                others.add(value);
            }
        }
        if (!others.isEmpty()) {
            any.add(upstream(new Document(field, new Document("$in", others)), upstream));
        }
        return or(any);
    }

    private static Predicate<Document> matches(String field, BsonRegularExpression regex) {
        return document -> {
            Object value = Utils.getSubdocumentValueCollectionAware(document, field);
            if (value instanceof String text) {
                return regex.matcher(text).find();
            }
            if (value instanceof Collection<?> elements) {
                for (Object element : elements) {
                    if (element instanceof String text && regex.matcher(text).find()) {
                        return true;
                    }
                }
            }
            return false;
        };
    }

    private static Predicate<Document> upstream(Document condition, BiPredicate<Document, Document> upstream) {
        return document -> upstream.test(document, condition);
    }

    private static Predicate<Document> and(List<Predicate<Document>> parts) {
        return document -> {
            for (Predicate<Document> part : parts) {
                if (!part.test(document)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static Predicate<Document> or(List<Predicate<Document>> parts) {
        return document -> {
            for (Predicate<Document> part : parts) {
                if (part.test(document)) {
                    return true;
                }
            }
            return false;
        };
    }
}
