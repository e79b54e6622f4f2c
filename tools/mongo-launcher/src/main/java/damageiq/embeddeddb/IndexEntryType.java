package damageiq.embeddeddb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;

import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.bson.Decimal128;
import de.bwaldvogel.mongo.bson.MaxKey;
import de.bwaldvogel.mongo.bson.MinKey;
import de.bwaldvogel.mongo.bson.ObjectId;

/**
 * How an {@link OrderedIndex}'s entries are kept in the MVStore: ordered by the index's own comparator,
 * written compactly and read back exactly (an int stays an int, {@code Missing} and the other markers
 * come back as the same instances). Values without a tag of their own (a subdocument, an array, binary
 * data) are Java-serialized, as H2 stores the documents themselves.
 */
final class IndexEntryType extends BasicDataType<OrderedIndex.Entry> {

    private static final byte NULL = 0;
    private static final byte MISSING = 1;
    private static final byte EMPTY_ARRAY = 2;
    private static final byte MIN_KEY = 3;
    private static final byte MAX_KEY = 4;
    private static final byte OBJECT_ID = 5;
    private static final byte STRING = 6;
    private static final byte INSTANT = 7;
    private static final byte DATE = 8;
    private static final byte TRUE = 9;
    private static final byte FALSE = 10;
    private static final byte INT = 11;
    private static final byte LONG = 12;
    private static final byte DOUBLE = 13;
    private static final byte DECIMAL = 14;
    private static final byte SERIALIZED = 15;

    private final int keyCount;
    private final Comparator<OrderedIndex.Entry> order;

    IndexEntryType(int keyCount, Comparator<OrderedIndex.Entry> order) {
        this.keyCount = keyCount;
        this.order = order;
    }

    @Override
    public int compare(OrderedIndex.Entry a, OrderedIndex.Entry b) {
        return order.compare(a, b);
    }

    @Override
    public int getMemory(OrderedIndex.Entry entry) {
        // The record, its list and array: about 64 bytes; each value by what it holds.
        int memory = 64 + memory(entry.position());
        for (Object value : entry.values()) {
            memory += memory(value);
        }
        return memory;
    }

    private static int memory(Object value) {
        if (value instanceof String text) {
            return 48 + text.length();
        }
        if (value instanceof ObjectId) {
            return 48;
        }
        return value == null || value instanceof Missing || value instanceof Boolean ? 8 : 40;
    }

    @Override
    public void write(WriteBuffer buffer, OrderedIndex.Entry entry) {
        for (Object value : entry.values()) {
            writeValue(buffer, value);
        }
        writeValue(buffer, entry.position());
    }

    @Override
    public OrderedIndex.Entry read(ByteBuffer buffer) {
        Object[] values = new Object[keyCount];
        for (int i = 0; i < keyCount; i++) {
            values[i] = readValue(buffer);
        }
        return new OrderedIndex.Entry(Arrays.asList(values), readValue(buffer));
    }

    @Override
    public OrderedIndex.Entry[] createStorage(int size) {
        return new OrderedIndex.Entry[size];
    }

    static void writeValue(WriteBuffer buffer, Object value) {
        if (value == null) {
            buffer.put(NULL);
        } else if (value instanceof Missing) {
            buffer.put(MISSING);
        } else if (value == OrderedIndex.EmptyArray.KEY) {
            buffer.put(EMPTY_ARRAY);
        } else if (value instanceof MinKey) {
            buffer.put(MIN_KEY);
        } else if (value instanceof MaxKey) {
            buffer.put(MAX_KEY);
        } else if (value instanceof ObjectId id) {
            buffer.put(OBJECT_ID).put(id.toByteArray());
        } else if (value instanceof String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            buffer.put(STRING).putVarInt(bytes.length).put(bytes);
        } else if (value instanceof Instant instant) {
            buffer.put(INSTANT).putLong(instant.getEpochSecond()).putInt(instant.getNano());
        } else if (value.getClass() == Date.class) {
            buffer.put(DATE).putLong(((Date) value).getTime());
        } else if (value instanceof Boolean b) {
            buffer.put(b ? TRUE : FALSE);
        } else if (value instanceof Integer n) {
            buffer.put(INT).putInt(n);
        } else if (value instanceof Long n) {
            buffer.put(LONG).putLong(n);
        } else if (value instanceof Double n) {
            buffer.put(DOUBLE).putLong(Double.doubleToRawLongBits(n));
        } else if (value instanceof Decimal128 n) {
            buffer.put(DECIMAL).putLong(n.getHigh()).putLong(n.getLow());
        } else {
            byte[] bytes = serialize(value);
            buffer.put(SERIALIZED).putVarInt(bytes.length).put(bytes);
        }
    }

    static Object readValue(ByteBuffer buffer) {
        byte tag = buffer.get();
        return switch (tag) {
            case NULL -> null;
            case MISSING -> Missing.getInstance();
            case EMPTY_ARRAY -> OrderedIndex.EmptyArray.KEY;
            case MIN_KEY -> MinKey.getInstance();
            case MAX_KEY -> MaxKey.getInstance();
            case OBJECT_ID -> {
                byte[] bytes = new byte[12];
                buffer.get(bytes);
                yield new ObjectId(bytes);
            }
            case STRING -> new String(bytes(buffer), StandardCharsets.UTF_8);
            case INSTANT -> Instant.ofEpochSecond(buffer.getLong(), buffer.getInt());
            case DATE -> new Date(buffer.getLong());
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case INT -> buffer.getInt();
            case LONG -> buffer.getLong();
            case DOUBLE -> Double.longBitsToDouble(buffer.getLong());
            case DECIMAL -> new Decimal128(buffer.getLong(), buffer.getLong());
            case SERIALIZED -> deserialize(bytes(buffer));
            default -> throw new IllegalStateException("unknown index value tag " + tag);
        };
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[DataUtils.readVarInt(buffer)];
        buffer.get(bytes);
        return bytes;
    }

    private static byte[] serialize(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectOutputStream objects = new ObjectOutputStream(out)) {
            objects.writeObject(value);
        } catch (IOException e) {
            throw new IllegalStateException("cannot store index value " + value, e);
        }
        return out.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot read an index value", e);
        }
    }

    /** An entry's value in the map: nothing (the key is the entry). */
    static final class Marker extends BasicDataType<Boolean> {
        static final Marker INSTANCE = new Marker();

        @Override
        public int getMemory(Boolean value) {
            return 0;
        }

        @Override
        public void write(WriteBuffer buffer, Boolean value) {
            // Nothing to write: every entry's value is the same.
        }

        @Override
        public Boolean read(ByteBuffer buffer) {
            return Boolean.TRUE;
        }

        @Override
        public Boolean[] createStorage(int size) {
            return new Boolean[size];
        }
    }
}
