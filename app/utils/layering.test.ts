import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The folder tree is the architecture: services, models and infrastructure never reach into the UI
// (app/components), and infrastructure (app/utils) never into the services; the glue between a
// screen's route and its services lives in app/screens.
const root = path.resolve(__dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const importsOf = (file: string) =>
  [...readFileSync(path.join(root, file), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);

describe("layering", () => {
  it.each([
    ["services", /(^~\/components\/|\/components\/)/],
    ["models", /(^~\/components\/|\/components\/|^~\/services\/)/],
    ["utils", /(^~\/components\/|\/components\/|^~\/services\/)/],
  ])("app/%s imports nothing it must not", (dir, forbidden) => {
    const offending = sources(dir).flatMap((file) => importsOf(file).filter((i) => forbidden.test(i)).map((i) => `${file} → ${i}`));
    expect(offending).toEqual([]);
  });
});

// The whole graph, drawn by madge (scripts/import-graph.mjs; docs/decisions/0024).
describe("import graph", async () => {
  const { importGraph } = await import("../../scripts/import-graph.mjs");
  const { cycles, upward, sizes } = await importGraph(path.join(root));

  it("has no import cycle under app/", () => {
    expect(cycles.map((cycle: string[]) => cycle.join(" → "))).toEqual([]);
  });

  it("has no upward arrow (a lower layer importing a higher one)", () => {
    expect(upward).toEqual([]);
  });

  it("keeps service modules small: none over 400 lines, none of storage's concerns over 300", () => {
    const over = (sizes as { file: string; lines: number }[]).filter(
      ({ file, lines }) => file.startsWith("services/") && lines > (file.startsWith("services/storage/") ? 300 : 400),
    );
    expect(over).toEqual([]);
  });
});

/**
 * Models and services answer with data or throw typed errors (app/utils/domain-errors.ts); turning
 * them into HTTP is the routes' job (app/utils/http.server.ts). Only the sign-in guards may still speak
 * HTTP, as the Epic Stack's do: requireUser/requireAdmin answer 401/403 or redirect to the sign-in, and
 * the session redirects. This list may only shrink.
 */
const HTTP_IN_SERVICES_ALLOWED = [
  "services/auth.server.ts: json",
  "services/auth.server.ts: jsonError",
  "services/auth.server.ts: redirect",
  "services/session.server.ts: redirect",
];
const HTTP_ANSWERS: Record<string, string[]> = {
  "@remix-run/node": ["json", "redirect"],
  "~/utils/http.server": ["jsonError", "validationError", "uploadError", "apiAnswer"],
  "~/utils/db-errors.server": ["serviceUnavailable"],
};
const belowRoutes = () => [...sources("models"), ...sources("services")];

describe("models, services and HTTP", () => {
  it("no model or service builds an HTTP answer (json/redirect from @remix-run/node, jsonError & co.) beyond the shrinking list", () => {
    const found = belowRoutes().flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(/import\s+\{([^}]*)\}\s+from\s+"([^"]+)"/g)].flatMap((m) =>
        m[1]
          .split(",")
          .map((name) => name.trim())
          .filter((name) => HTTP_ANSWERS[m[2]]?.includes(name))
          .map((name) => `${file}: ${name}`),
      ),
    );
    expect(found.sort()).toEqual([...HTTP_IN_SERVICES_ALLOWED].sort());
  });

  it("no model builds a Response, json(…) or redirect(…): a refusal is a typed error", () => {
    const found = sources("models").filter((file) => /new\s+Response\b|\bjson\(|\bredirect\(/.test(readFileSync(path.join(root, file), "utf8")));
    expect(found).toEqual([]);
  });

  // Services that serve a body (the PDF, media, an idempotent replay) still hand back its Response;
  // a refusal is never one, but for the guards above.
  it("no service throws a Response, json(…) or redirect(…), or returns json(…) beyond the guards", () => {
    const found = sources("services").filter((file) =>
      /throw\s+(new\s+Response\b|json\(|redirect\()|return\s+json\(/.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(found).toEqual(["services/auth.server.ts"]);
  });
});
