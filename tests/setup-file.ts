import { randomBytes } from "node:crypto";
import { format } from "node:util";
import { afterEach, beforeEach, inject, vi } from "vitest";

// Each test file runs against a database of its own (dropped by name uniqueness).
const base = new URL(inject("mongoBaseUri"));
base.pathname = `/t_${process.env.VITEST_POOL_ID ?? "0"}_${randomBytes(4).toString("hex")}`;
process.env.MONGODB_URI = base.toString();
process.env.DATA_DIR ??= `.tmp/vitest-data-${process.env.VITEST_POOL_ID ?? "0"}`;

// Any console.error during a test is a failure: errors must be handled, not logged and ignored.
let errors: string[] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(format(...args));
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    throw new Error(`console.error was called during the test:\n${errors.join("\n")}`);
  }
});
