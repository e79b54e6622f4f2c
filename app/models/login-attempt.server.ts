import { defineModel } from "./define-model.server";
import { Schema, trusted } from "mongoose";

/** Failed logins, kept in MongoDB so throttling holds across app instances. */
const loginAttemptSchema = new Schema({
  key: { type: String, required: true, index: true },
  at: { type: Date, required: true, default: () => new Date() },
});

export const LoginAttempt =
  defineModel("LoginAttempt", loginAttemptSchema);

export async function recentFailures({ key, windowMs }: { key: string; windowMs: number }) {
  const since = new Date(Date.now() - windowMs);
  return LoginAttempt.find({ key, at: trusted({ $gt: since }) })
    .sort({ at: 1 })
    .lean<{ at: Date }[]>();
}

export async function recordFailure({ key }: { key: string }) {
  await LoginAttempt.create({ key });
}

export async function clearFailures({ key, olderThan }: { key?: string; olderThan?: Date }) {
  if (key) await LoginAttempt.deleteMany({ key });
  if (olderThan) await LoginAttempt.deleteMany({ at: trusted({ $lt: olderThan }) });
}
