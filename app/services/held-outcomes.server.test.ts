import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { HeldOutcomes, isHeldHere } from "./held-outcomes.server";

// The worker's memory of what a mail server accepted while the database was away (docs/decisions/0054):
// written once the database answers, exactly once, bounded, and shown to recovery as held.

/** A database that is away until `up` is set: every write throws meanwhile; a write that gets through is recorded. */
function fakeDb() {
  const state = { up: false, writes: [] as string[], tries: 0 };
  const write = async (outcome: string) => {
    state.tries += 1;
    if (!state.up) throw Object.assign(new Error("connection closed"), { name: "MongoNetworkError" });
    state.writes.push(outcome);
  };
  return { state, write };
}

let held: HeldOutcomes<string> | undefined;
afterEach(() => held?.stop());

describe("held outcomes", () => {
  it("keeps an outcome while the database is away and writes it once when it answers", async () => {
    const db = fakeDb();
    held = new HeldOutcomes({ write: db.write, retryMs: 20 });
    expect(held.hold("a", "sent a")).toBe(true);
    expect(isHeldHere("a")).toBe(true);
    await sleep(120);
    expect(db.state.tries).toBeGreaterThan(1); // it kept trying
    expect(db.state.writes).toEqual([]);
    expect(held.size).toBe(1);
    db.state.up = true;
    await expect.poll(() => db.state.writes, { timeout: 2_000 }).toEqual(["sent a"]);
    await sleep(100);
    expect(db.state.writes).toEqual(["sent a"]); // once, not again
    expect(held.size).toBe(0);
    expect(isHeldHere("a")).toBe(false);
  });

  it("holds one outcome per id: holding it again replaces it, and it is written once", async () => {
    const db = fakeDb();
    held = new HeldOutcomes({ write: db.write, retryMs: 20 });
    held.hold("b", "first");
    held.hold("b", "second");
    expect(held.size).toBe(1);
    db.state.up = true;
    expect(await held.flush()).toBe(1);
    expect(db.state.writes).toEqual(["second"]);
  });

  it("is bounded: past its limit an outcome is refused (left to recovery), the held ones still written", async () => {
    const db = fakeDb();
    held = new HeldOutcomes({ write: db.write, retryMs: 20, limit: 2 });
    expect(held.hold("c1", "c1")).toBe(true);
    expect(held.hold("c2", "c2")).toBe(true);
    expect(held.hold("c3", "c3")).toBe(false);
    expect(isHeldHere("c3")).toBe(false);
    db.state.up = true;
    await expect.poll(() => db.state.writes.sort(), { timeout: 2_000 }).toEqual(["c1", "c2"]);
  });

  it("stopped with outcomes not written: they are dropped and no longer held (recovery settles them)", async () => {
    const db = fakeDb();
    held = new HeldOutcomes({ write: db.write, retryMs: 20 });
    held.hold("d", "d");
    expect(held.stop()).toEqual(["d"]);
    expect(isHeldHere("d")).toBe(false);
    db.state.up = true;
    await sleep(100);
    expect(db.state.writes).toEqual([]);
  });
});
