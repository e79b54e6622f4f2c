import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
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
