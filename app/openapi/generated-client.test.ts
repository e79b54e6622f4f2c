import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../../tests/app-server";
import { startTokenApp } from "../../tests/signed-in-app";
import { openApiDocument } from "./document.server";

// Issue 42 item 6: a client generated from the description (openapi-typescript) compiles against
// it, reading a webhook payload's fields and an estimate line's: an untyped payload
// (`Record<string, never>`) or an untyped line (`Record<string, unknown>`) fails to compile here.

const USE = `import type { components, webhooks } from "./api";

type Completed = webhooks["assessment.completed"]["post"]["requestBody"]["content"]["application/json"];
declare const completed: Completed;
const type: "assessment.completed" = completed.type;
const id: string = completed.data.id;
const status: "uploaded" | "processing" | "analyzing" | "completed" | "reviewed" | "sent" = completed.data.status;
const cost: number | null = completed.data.estimatedCost;
const year: number | null = completed.data.vehicle.year;

type Approved = webhooks["estimate.approved"]["post"]["requestBody"]["content"]["application/json"];
declare const approved: Approved;
const decision: "approved" | "declined" = approved.data.decision;
const version: number = approved.data.version;

type Line = components["schemas"]["Assessment"]["lineItems"][number];
declare const line: Line;
const damageType: string = line.damageType;
const priced: boolean = line.priced;
const total: number | undefined = line.totalCents;
const hours: number | undefined = line.labour?.hours;
const manual: number | null | undefined = line.manualCents;

export const read = [type, id, status, cost, year, decision, version, damageType, priced, total, hours, manual];
`;

const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc");

describe("a client generated from the description", () => {
  it("types the webhook payloads and the estimate lines (tsc --noEmit on a file reading them)", async () => {
    const types = astToString(await openapiTS(openApiDocument() as never));
    const dir = await mkdtemp(join(tmpdir(), "damageiq-client-"));
    try {
      await writeFile(join(dir, "api.ts"), types);
      await writeFile(join(dir, "use.ts"), USE);
      const args = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "use.ts"];
      const result = await promisify(execFile)(process.execPath, [tsc, ...args], { cwd: dir }).then(
        () => ({ ok: true, out: "" }),
        (error: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
      );
      expect(result.out).toBe("");
      expect(result.ok).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});

// A sync loop written against the generated types with openapi-fetch: it compiles (strict) and runs
// against the app, paging contacts by `updatedSince` and `X-Next-Cursor` while one is created.
const SYNC = `import createClient from "openapi-fetch";
import type { paths } from "./api";

const [baseUrl, token] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });

for (let i = 0; i < 3; i++) {
  const made = await client.POST("/api/contacts", { body: { firstName: \`Ts \${i}\`, lastName: "Client", email: \`ts\${i}@client.test\` } });
  if (made.response.status !== 201) throw new Error(\`create: \${made.response.status}\`);
}
const seen: { id: string; firstName: string }[] = [];
const totals: number[] = [];
let cursor: string | undefined;
do {
  const { data, response } = await client.GET("/api/contacts", { params: { query: { limit: 2, updatedSince: "1970-01-01T00:00:00Z", cursor } } });
  if (!data) throw new Error(\`list: \${response.status}\`);
  for (const contact of data) seen.push({ id: contact.id, firstName: contact.firstName });
  totals.push(Number(response.headers.get("x-total-count")));
  if (totals.length === 1) await client.POST("/api/contacts", { body: { firstName: "Ts mid-sync", lastName: "Client", email: "mid@ts.test" } });
  cursor = response.headers.get("x-next-cursor") ?? undefined;
} while (cursor);
console.log(JSON.stringify({ seen, totals }));
`;

describe("a TypeScript client generated from the description (openapi-typescript + openapi-fetch)", () => {
  let app: RunningApp;
  let token: string;
  beforeAll(async () => {
    ({ app, token } = await startTokenApp());
  }, 120_000);
  afterAll(() => app?.stop());

  it("compiles a sync loop and runs it: every contact once, one created mid-sync included", async () => {
    // Inside the project, so the compiled loop finds openapi-fetch in node_modules.
    const dir = join(process.cwd(), ".tmp", `ts-client-${process.pid}`);
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(join(dir, "api.ts"), astToString(await openapiTS(openApiDocument() as never)));
      await writeFile(join(dir, "sync.ts"), SYNC);
      await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      const args = ["--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--types", "node", "--outDir", "out", "sync.ts"];
      const run = promisify(execFile);
      const compiled = await run(process.execPath, [tsc, ...args], { cwd: dir }).then(
        () => "",
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
      );
      expect(compiled).toBe("");
      await writeFile(join(dir, "out", "package.json"), JSON.stringify({ type: "module" }));
      const { stdout } = await run(process.execPath, [join(dir, "out", "sync.js"), app.url, token], { cwd: dir, timeout: 60_000 });
      const { seen, totals } = JSON.parse(stdout) as { seen: { id: string; firstName: string }[]; totals: number[] };
      expect(totals[0]).toBe(3);
      expect(seen.map((c) => c.firstName)).toEqual(["Ts 0", "Ts 1", "Ts 2", "Ts mid-sync"]);
      expect(new Set(seen.map((c) => c.id)).size).toBe(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
