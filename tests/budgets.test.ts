import { existsSync, readFileSync, statSync } from "node:fs";
import { get } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatJsBudgets, loadBuild, measureJsBudgets } from "../bench/js-budget.mjs";
import { Assessment } from "~/models/assessment.server";
import type { RunningApp } from "./app-server";
import { startSignedInApp } from "./signed-in-app";

// Issue 15: what a page makes a phone on a slow line download before it works. The table comes
// from the build (every screen, including ones added later); the pages themselves are checked
// against it over HTTP, so a screen cannot pass on paper and load more in the browser.
const CSS_BUDGET_KB = { "/login": 30 };
// Issue 30: on a cold cache each request before the first paint costs a round trip (150 ms on the
// slow line) and HTTP/1.1 fetches six at a time: what a page's HTML names (itself, stylesheets,
// icon, scripts and module preloads) stays within this, and it names every module the page's
// scripts import, so no file is discovered only after another arrived. Chunks: decision 0020.
const REQUESTS_BEFORE_PAINT = 15;
const root = path.resolve(import.meta.dirname, "..");

interface BudgetRow {
  route: string;
  path: string;
  kb: number;
  budget: number;
  ok: boolean;
  scriptless?: boolean;
  withUploader?: number;
}
const rows = measureJsBudgets() as unknown as BudgetRow[];

describe("first-load JavaScript budgets (gzip)", () => {
  it("every screen is within its budget", () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((r) => !r.ok).map((r) => r.path), `\n${formatJsBudgets(rows)}\n`).toEqual([]);
  });

  it("the sign-in screens load no JavaScript, and the upload screen loads Uppy only later", () => {
    for (const route of ["routes/login", "routes/admin.login"]) {
      expect(rows.find((r) => r.route === route)).toMatchObject({ kb: 0, scriptless: true });
    }
    const upload = rows.find((r) => r.route === "routes/_app.upload");
    expect(upload?.withUploader).toBeGreaterThan(upload!.kb + 50);
  });
});

describe("the pages load what the table says", () => {
  let app: RunningApp;
  let cookie: string;
  /** Where a screen is measured: the confirm step needs an estimate with a customer, else it redirects. */
  const urlOf: Record<string, string> = { "/*": "/no-such-page" };
  beforeAll(async () => {
    const { dealer: admin, user, ...started } = await startSignedInApp({ role: "admin" });
    ({ app, cookie } = started);
    const contact = await admin.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane.budget@example.com" });
    const estimate = await Assessment.create({ ownerId: user.id, title: "Blue Civic", contactId: contact.json.id, status: "completed" });
    urlOf["/send"] = `/send?assessment=${String(estimate._id)}`;
  });
  afterAll(() => app?.stop());

  const page = async (urlPath: string) => {
    const res = await fetch(`${app.url}${urlPath}`, { headers: { Cookie: cookie } });
    return res.text();
  };

  it.each(rows.map((r) => [r.path, r] as const))("%s", async (screenPath, row) => {
    const html = await page(urlOf[screenPath] ?? screenPath);
    if (screenPath === "/send") expect(html, "the confirm step itself, not a redirect").toContain('data-testid="send-confirm"');
    // Module scripts and preloads the document names, and the modules its inline script imports.
    const urls = new Set<string>();
    for (const m of html.matchAll(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/g)) urls.add(m[1]);
    for (const m of html.matchAll(/<script[^>]* src="(\/build\/[^"]+\.js)"/g)) urls.add(m[1]);
    for (const m of html.matchAll(/(?:from |import\()"(\/build\/[^"]+\.js)"/g)) urls.add(m[1]);
    if (row.scriptless) {
      expect([...urls]).toEqual([]);
      expect(html).not.toMatch(/<script[^>]*type="module"/);
      return;
    }
    expect(urls.size).toBeGreaterThan(0);
    const build = loadBuild();
    expect(build.kb([...urls])).toBeCloseTo(row.kb, 1);

    const preloaded = new Set([...urls].map(build.keyOf));
    const imported = [...build.closure([...preloaded])].filter((key) => !preloaded.has(key));
    expect(imported, "modules the page imports that its HTML does not preload").toEqual([]);
    const sheets = html.match(/<link rel="stylesheet"/g)?.length ?? 0;
    const icons = html.match(/<link rel="icon"/g)?.length ?? 0;
    const requests = 1 + sheets + icons + urls.size;
    expect(requests, `${screenPath}: the document, ${sheets} stylesheets, ${icons} icon, ${urls.size} scripts`).toBeLessThanOrEqual(
      REQUESTS_BEFORE_PAINT,
    );
  });

  it("a script goes out as its build-time gzip copy, the bytes the table counts, and as itself to a client without gzip", async () => {
    const html = await page("/");
    const url = [...html.matchAll(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]).find((u) => u.includes("framework"));
    expect(url).toBeDefined();
    const build = loadBuild();
    const file = path.resolve(root, build.keyOf(url!));
    expect(existsSync(`${file}.gz`)).toBe(true);
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; bytes: number }>((resolve, reject) => {
        get(`${app.url}${url}`, { headers: { "Accept-Encoding": encoding } }, (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => (bytes += chunk.length));
          res.on("end", () => resolve({ headers: res.headers, bytes }));
        }).on("error", reject);
      });
    const gzipped = await raw("gzip, deflate");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers["content-type"]).toMatch(/javascript/);
    expect(gzipped.headers["cache-control"]).toMatch(/immutable/);
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(gzipped.bytes).toBe(statSync(`${file}.gz`).size);
    expect(build.kbOfKeys([build.keyOf(url!)])).toBe(gzipped.bytes / 1000);
    const plain = await raw("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.bytes).toBe(statSync(file).size);
  });

  it.each(Object.entries(CSS_BUDGET_KB))("%s loads at most %d KB of CSS (gzip)", async (urlPath, budget) => {
    const html = await page(urlPath);
    const sheets = [...html.matchAll(/<link rel="stylesheet" href="(\/build\/[^"]+\.css)"/g)].map((m) => m[1]);
    expect(sheets.length).toBeGreaterThan(0);
    let bytes = 0;
    for (const href of sheets) bytes += gzipSync(Buffer.from(await (await fetch(`${app.url}${href}`)).arrayBuffer())).length;
    expect(bytes / 1000).toBeLessThanOrEqual(budget);
  });
});

describe("Mantine's styles", () => {
  it("app/styles/mantine.css imports the styles of every Mantine component the pages use", () => {
    const { outputs } = loadBuild();
    const used = new Set<string>();
    for (const output of Object.values(outputs) as { inputs: Record<string, { bytesInOutput: number }> }[]) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const component = /@mantine\/core\/esm\/components\/([^/]+)\//.exec(input)?.[1];
        if (component && bytesInOutput > 0) used.add(component);
      }
    }
    const stylesDir = path.join(root, "node_modules/@mantine/core/styles");
    const css = readFileSync(path.join(root, "app/styles/mantine.css"), "utf8");
    const missing = [...used].filter((c) => {
      try {
        readFileSync(path.join(stylesDir, `${c}.css`));
      } catch {
        return false; // a component without styles of its own
      }
      return !css.includes(`@import "@mantine/core/styles/${c}.css";`);
    });
    expect(used.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
