import { describe, expect, it } from "vitest";
import { shouldCollect } from "./idle-collector.server";

const MiB = 1024 * 1024;
const after = (figures: Partial<Parameters<typeof shouldCollect>[0]>) =>
  shouldCollect({ wanted: true, utilization: 0.01, heapUsed: 200 * MiB, afterLastCollection: 80 * MiB, ...figures });

describe("the idle collector", () => {
  it("collects after a burst of background work, once the process is quiet and its heap grew 32 MB or more", () => {
    expect(after({})).toBe(true);
    expect(after({ heapUsed: 112 * MiB })).toBe(true);
    // Busy: V8 collects on its own while allocating, and a pause would cost a request.
    expect(after({ utilization: 0.4 })).toBe(false);
    // Quiet but nothing much to give back.
    expect(after({ heapUsed: 100 * MiB })).toBe(false);
    // Web traffic alone never asks: the next requests would pay for growing the heap again.
    expect(after({ wanted: false })).toBe(false);
  });
});
