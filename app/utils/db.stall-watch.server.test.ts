import mongoose from "mongoose";
import { afterAll, describe, expect, it, vi } from "vitest";

// The app's connection reports its commands (to see the watch's pings go out); set before the app's
// modules read the environment.
process.env.MONGODB_URI = `${process.env.MONGODB_URI}?monitorCommands=true`;
const { closeDb, databaseStalled, db } = await import("./db.server");
const { log } = await import("./log.server");

// The stall watch (docs/decisions/0045) judges the database, not this process: when the app's own
// event loop is held (a long render, a large JSON parse) past DB_STALL_MS while a ping is in flight,
// the answer that arrived meanwhile counts; the ping's deadline alone is no proof of a stall.

/** Holds this process's event loop, as a long synchronous piece of work does. */
function holdEventLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe("the stall watch", () => {
  afterAll(async () => {
    await closeDb();
  });

  it("does not call the database stalled when this process, not the database, was held past DB_STALL_MS", { timeout: 30_000 }, async () => {
    await db().ready;
    expect(db().up).toBe(true);
    const warn = vi.spyOn(log, "warn");
    const client = mongoose.connection.getClient();
    let held = 0;
    let stalledSeen = false;
    const onStarted = (event: { commandName: string }) => {
      if (event.commandName !== "ping" || held >= 3) return;
      held += 1;
      // Once the ping is written (a microtask later) and before its answer is read: the answer arrives
      // while the loop is held, past the 1 s deadline.
      setImmediate(() => holdEventLoop(1500));
    };
    client.on("commandStarted", onStarted);
    try {
      const until = Date.now() + 20_000;
      while (held < 3 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        stalledSeen ||= databaseStalled();
      }
      // The last held ping's verdict.
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 50));
        stalledSeen ||= databaseStalled();
      }
    } finally {
      client.off("commandStarted", onStarted);
    }
    expect(held).toBe(3);
    expect(stalledSeen).toBe(false);
    expect(warn.mock.calls.map((call) => String(call[0]))).not.toContainEqual(expect.stringContaining("did not answer a ping"));
  });
});
