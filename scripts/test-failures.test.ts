import path from "node:path";
import { describe, expect, it } from "vitest";
import { failedTests } from "./test-failures.mjs";

// CI shows the tail of `npm test`: each failure must be named there, from both reports.
describe("the failures listed at the end of npm test", () => {
  it("name a vitest test and a Playwright test, with its describes, project and first message line", () => {
    const vitest = {
      testResults: [
        {
          name: path.resolve("app/services/a.api.test.ts"),
          status: "failed",
          assertionResults: [
            { fullName: "a video's frames are objects", status: "failed", failureMessages: ["\u001b[31mAssertionError: expected 404 to be 200\u001b[39m\n    at stack"] },
            { fullName: "passes", status: "passed", failureMessages: [] },
          ],
        },
        { name: path.resolve("app/b.test.ts"), status: "failed", message: "Error: Hook timed out", assertionResults: [] },
      ],
    };
    const playwright = {
      suites: [
        {
          title: "contacts.spec.ts",
          file: "contacts.spec.ts",
          specs: [],
          suites: [
            {
              title: "Contacts",
              file: "contacts.spec.ts",
              specs: [
                { title: "long list", file: "contacts.spec.ts", tests: [{ projectName: "no-js", status: "unexpected", results: [{ error: { message: "Error: locator not found\nCall log" } }] }] },
                { title: "ok", file: "contacts.spec.ts", tests: [{ projectName: "js", status: "expected", results: [{}] }] },
              ],
            },
          ],
        },
      ],
    };
    expect(failedTests(vitest, playwright)).toEqual([
      "app/services/a.api.test.ts › a video's frames are objects: AssertionError: expected 404 to be 200",
      "app/b.test.ts: Error: Hook timed out",
      "contacts.spec.ts › Contacts › long list [no-js]: Error: locator not found",
    ]);
  });

  it("are none when every test passed or a report is missing", () => {
    expect(failedTests(undefined, undefined)).toEqual([]);
  });
});
