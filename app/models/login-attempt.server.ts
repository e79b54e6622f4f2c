import { defineModel } from "./define-model.server";
import { Schema, trusted } from "mongoose";

/**
 * Sign-in attempts, kept in MongoDB so throttling holds across app instances. An attempt is
 * written before its password is checked and counted after: concurrent attempts cannot all see
 * the count from before any of them (which let 18 of 30 parallel guesses through a limit of 5).
 */
const loginAttemptSchema = new Schema({
  key: { type: String, required: true },
  at: { type: Date, required: true, default: () => new Date() },
});
// Counts per key in a window, decided on index entries.
loginAttemptSchema.index({ key: 1, at: 1 });

export const LoginAttempt = defineModel("LoginAttempt", loginAttemptSchema);

/** One attempt under each key (e.g. username + IP, and the IP alone); answers its time. */
export async function recordAttempt({ keys }: { keys: string[] }) {
  const at = new Date();
  await LoginAttempt.insertMany(keys.map((key) => ({ key, at })));
  return at;
}

/** Takes back an attempt recorded at `at` (refused, or it succeeded). */
export async function forgetAttempt({ keys, at }: { keys: string[]; at: Date }) {
  await LoginAttempt.deleteMany({ key: trusted({ $in: keys }), at });
}

/** Attempts under `key` since `since`, and when the oldest of them was made. */
export async function attemptsSince({ key, since }: { key: string; since: Date }) {
  const filter = { key, at: trusted({ $gt: since }) };
  const [count, oldest] = await Promise.all([
    LoginAttempt.countDocuments(filter),
    LoginAttempt.findOne(filter).sort({ at: 1 }).select({ at: 1 }).lean<{ at: Date }>(),
  ]);
  return { count, oldestAt: oldest?.at ?? null };
}

/** Forgets a key's attempts (a successful sign-in), and everyone's older than `olderThan`. */
export async function clearAttempts({ key, olderThan }: { key?: string; olderThan?: Date }) {
  if (key) await LoginAttempt.deleteMany({ key });
  if (olderThan) await LoginAttempt.deleteMany({ at: trusted({ $lt: olderThan }) });
}
