import { MongoNetworkError, MongoServerError } from "mongodb";
import { expect, it } from "vitest";
import { isDbUnavailableError } from "./db-errors.server";

// The driver's errors by the names it gives them (mongodb/lib/cmap/errors.js; its classes are not exported).
const driverError = (name: string, message: string) => Object.assign(new Error(message), { name });

it("counts an operation cut by a cleared pool as the database unavailable (503), not a failure of ours (500)", () => {
  expect(isDbUnavailableError(driverError("PoolClearedOnNetworkError", "Connection to 127.0.0.1:27017 interrupted due to server monitor timeout"))).toBe(true);
  expect(isDbUnavailableError(driverError("MongoPoolClearedError", "Connection pool for 127.0.0.1:27017 was cleared"))).toBe(true);
  expect(isDbUnavailableError(new MongoNetworkError("connection 3 to 127.0.0.1:27017 closed"))).toBe(true);
  expect(isDbUnavailableError(new MongoServerError({ message: "E11000 duplicate key", code: 11000 }))).toBe(false);
  expect(isDbUnavailableError(new Error("boom"))).toBe(false);
});
