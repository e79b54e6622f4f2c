const retired = new WeakMap<object, string[]>();

/**
 * Indexes an earlier version declared and this one does not (defineModel's `retiredIndexes`):
 * start-up drops them, since building indexes never drops one and each index left behind is written
 * on every write to its collection.
 */
export const retiredIndexesOf = (model: object) => retired.get(model) ?? [];

export function retireIndexes(model: object, names: string[]) {
  retired.set(model, names);
}
