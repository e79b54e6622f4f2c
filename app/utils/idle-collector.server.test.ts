import { describe, expect, it } from "vitest";
import { shouldCollect } from "./idle-collector.server";

const MiB = 1024 * 1024;

describe("the idle collector", () => {
  it("collects only in a quiet process whose heap grew 32 MB or more since the last collection", () => {
    expect(shouldCollect({ utilization: 0.01, heapUsed: 200 * MiB, afterLastCollection: 80 * MiB })).toBe(true);
    expect(shouldCollect({ utilization: 0.01, heapUsed: 112 * MiB, afterLastCollection: 80 * MiB })).toBe(true);
    // Busy: V8 collects on its own while allocating, and a pause would cost a request.
    expect(shouldCollect({ utilization: 0.4, heapUsed: 200 * MiB, afterLastCollection: 80 * MiB })).toBe(false);
    // Quiet but nothing much to give back.
    expect(shouldCollect({ utilization: 0.01, heapUsed: 100 * MiB, afterLastCollection: 80 * MiB })).toBe(false);
  });
});
