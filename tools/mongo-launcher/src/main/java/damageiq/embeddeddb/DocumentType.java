package damageiq.embeddeddb;

import org.h2.mvstore.type.ObjectDataType;

/**
 * H2's type for stored documents (Java serialization, unchanged on disk), counted in the page cache
 * at their size in the heap: H2 counts a serialized value by its serialized size, and a deserialized
 * {@code Document} takes about three times that (50,000 assessments read through a 128 MB cache held
 * 235 MiB live). Without it the cache, and so the heap, held more than its size says.
 */
final class DocumentType extends ObjectDataType {

    private static final int HEAP_PER_SERIALIZED_BYTE = 3;

    @Override
    public int getMemory(Object value) {
        return HEAP_PER_SERIALIZED_BYTE * super.getMemory(value);
    }
}
