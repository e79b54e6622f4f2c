import { describe, expect, it } from "vitest";
import { broadcast } from "~/utils/broadcast.server";
import { writeCache } from "./write-cache.server";

// The write cache's reads under way (issue 43): callers that miss at once share one read, and a
// write on this machine while it runs sends the next caller to the database again.

const later = <T>(value: T) => {
  let resolve!: () => void;
  const done = new Promise<T>((r) => (resolve = () => r(value)));
  return { done, resolve };
};

describe("a write cache's reads under way", () => {
  it("eight callers missing at once run one read and all get its answer", async () => {
    const cache = writeCache("test-shared-read");
    let reads = 0;
    const slow = later(42);
    const load = () => {
      reads++;
      return slow.done;
    };
    const answers = Promise.all(Array.from({ length: 8 }, () => cache.get("count camry", load)));
    slow.resolve();
    expect(await answers).toEqual(Array(8).fill(42));
    expect(reads).toBe(1);
  });

  it("a write during the read: a caller after it reads again, and the older read's answer is not kept", async () => {
    const cache = writeCache("test-read-then-write");
    const reads: ReturnType<typeof later<number>>[] = [later(1), later(2), later(3)];
    let n = 0;
    const load = () => reads[n++].done;
    const before = cache.get("k", load);
    // This machine's write empties the cache (forgetOnWrite broadcasts its channel).
    broadcast("test-read-then-write");
    const after = cache.get("k", load);
    reads[0].resolve();
    reads[1].resolve();
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(n).toBe(2);
    // Different keys never share.
    const other = cache.get("other", load);
    reads[2].resolve();
    expect(await other).toBe(3);
  });

  it("a failed read is not shared with the callers after it", async () => {
    const cache = writeCache("test-failed-read");
    let reads = 0;
    const failing = () => {
      reads++;
      return Promise.reject(new Error("database away"));
    };
    await expect(cache.get("k", failing)).rejects.toThrow("database away");
    await expect(cache.get("k", async () => (reads++, 7))).resolves.toBe(7);
    expect(reads).toBe(2);
  });
});
