import { randomBytes } from "node:crypto";
import { format } from "node:util";
import { afterEach, beforeEach, inject, vi } from "vitest";

// Each test file runs against a database of its own (dropped by name uniqueness).
const base = new URL(inject("mongoBaseUri"));
base.pathname = `/t_${process.env.VITEST_POOL_ID ?? "0"}_${randomBytes(4).toString("hex")}`;
process.env.MONGODB_URI = base.toString();
process.env.DATA_DIR ??= `.tmp/vitest-data-${process.env.VITEST_POOL_ID ?? "0"}`;

// Any error logged during a test (console.error, or the app's log at error or fatal) is a failure:
// errors must be handled, not logged and ignored. The log is imported here, after the database's
// variables are set, since it reads the environment.
let errors: string[] = [];
const logLevels = ["error", "fatal"] as const;
beforeEach(async () => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(format(...args));
  });
  const { log } = await import("../app/utils/log.server");
  for (const level of logLevels) {
    vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => {
      errors.push(format(...args));
    }) as typeof log.error);
  }
});
afterEach(async () => {
  vi.mocked(console.error).mockRestore();
  const { log } = await import("../app/utils/log.server");
  for (const level of logLevels) vi.mocked(log[level]).mockRestore();
  if (errors.length > 0) {
    throw new Error(`an error was logged during the test:\n${errors.join("\n")}`);
  }
});
