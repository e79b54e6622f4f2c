import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pathOfFile, routes } from "../route-registry";

const routeFiles = readdirSync(path.resolve(import.meta.dirname, "../../app/routes")).filter(
  (f) => /\.(ts|tsx)$/.test(f) && !/\.test\.(ts|tsx)$/.test(f),
);

describe("the route registry", () => {
  it("lists every route file in app/routes, and no file that is not there", () => {
    const listed = routes.map((r) => r.file);
    expect(listed.filter((f, i) => listed.indexOf(f) !== i), "listed twice").toEqual([]);
    expect(routeFiles.filter((f) => !listed.includes(f)), "route files missing from tests/route-registry.ts").toEqual([]);
    expect(listed.filter((f) => !routeFiles.includes(f)), "listed but not in app/routes").toEqual([]);
  });

  it("gives each file the path Remix serves it at, and API routes live under /api", () => {
    for (const route of routes) {
      expect(route.path, route.file).toBe(pathOfFile(route.file));
      expect(route.kind === "api", route.file).toBe(route.path.startsWith("/api/"));
    }
  });
});
