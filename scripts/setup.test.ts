import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appBuildIsStale, appSourcesHash, stampAppBuild } from "./setup.mjs";

// A vitest run of one API test file starts the built app (tests/global-setup.ts rebuilds it when
// appBuildIsStale says so): the check is held here on a checkout of a few files in a temporary folder.
describe("the app build's staleness check", () => {
  let dir: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  /** A checkout with a finished build stamped with today's sources. */
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "build-stale-"));
    write("app/routes/a.ts", "export const a = 1;\n");
    write("app/routes/a.test.ts", "// a test\n");
    write("public/favicon.ico", "icon");
    write("package-lock.json", "{}\n");
    write("build/index.js", "// built\n");
    write("public/build/entry.js", "// client build\n");
    stampAppBuild(appSourcesHash(dir), dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is fresh when nothing the build is made from changed", () => {
    expect(appBuildIsStale(dir)).toBe(false);
  });

  it("is stale after an edit to a source, even one that keeps an older time", () => {
    write("app/routes/a.ts", "export const a = 2;\n");
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(path.join(dir, "app/routes/a.ts"), past, past);
    expect(appBuildIsStale(dir)).toBe(true);
  });

  it("is stale after a new source, a public file or the lockfile changes", () => {
    for (const [file, text] of [
      ["app/routes/b.ts", "export const b = 1;\n"],
      ["public/favicon.ico", "another icon"],
      ["package-lock.json", '{"lockfileVersion":3}\n'],
    ]) {
      stampAppBuild(appSourcesHash(dir), dir);
      write(file, text);
      expect(appBuildIsStale(dir), file).toBe(true);
    }
  });

  it("stays fresh when only a test file or the client build's own output changes", () => {
    write("app/routes/a.test.ts", "// another test\n");
    write("public/build/entry.js", "// rebuilt\n");
    expect(appBuildIsStale(dir)).toBe(false);
  });

  it("is stale without a stamp (an unfinished build) or without build/index.js", () => {
    rmSync(path.join(dir, "build/sources.sha256"));
    expect(appBuildIsStale(dir)).toBe(true);
    stampAppBuild(appSourcesHash(dir), dir);
    rmSync(path.join(dir, "build/index.js"));
    expect(appBuildIsStale(dir)).toBe(true);
  });
});
