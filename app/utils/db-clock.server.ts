import mongoose from "mongoose";

/**
 * The database's clock, as seen from this process (docs/decisions/0016). Leases, heartbeats and
 * due times are written and compared by several instances, whose clocks may disagree by seconds:
 * they all use the database's time instead. The embedded engine has no aggregation-pipeline updates
 * (no `$$NOW` in an update), so the offset between this machine's clock and the database's is
 * measured (the server's `localTime` against the middle of the round trip) when the connection
 * opens and every minute after, and applied to the local clock.
 */
let offsetMs = 0;

export const dbNowMs = () => Date.now() + offsetMs;
export const dbNow = () => new Date(dbNowMs());

/** The commands tried for the time; once one answers, only that one (`serverStatus` for servers without `hello`). */
let clockCommands: Record<string, 1>[] = [{ hello: 1 }, { serverStatus: 1 }];

/** Measures the offset (MongoDB and the embedded engine answer `hello` with their time). */
export async function measureDbClock() {
  const admin = mongoose.connection.db?.admin();
  if (!admin) return offsetMs;
  for (const command of clockCommands) {
    const before = Date.now();
    const answer = await admin.command(command).catch(() => null);
    const after = Date.now();
    if (answer?.localTime instanceof Date) {
      clockCommands = [command];
      offsetMs = Math.round(answer.localTime.getTime() - (before + after) / 2);
      return offsetMs;
    }
  }
  return offsetMs;
}

let timer: ReturnType<typeof setInterval> | undefined;
/** Measures now and every minute (a machine's clock drifts, or is set). */
export async function followDbClock() {
  await measureDbClock();
  timer ??= setInterval(() => void measureDbClock(), 60_000);
  timer.unref();
}
