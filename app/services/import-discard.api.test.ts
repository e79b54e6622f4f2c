import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportKey } from "~/models/account-data.server";
import { Contact } from "~/models/contact.server";
import { ImportRun } from "~/models/import-run.server";
import { client, createTestUser, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// An account import stopped half-way (its process killed: its lease ran out) can be discarded by its
// owner: what it stored goes, what was there before stays, and the run keeps who discarded it and
// what was removed. Another account neither sees nor discards it; a running import is not touched.

let dataDir: string;
let app: RunningApp;
let ownerId: string;
let owner: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

beforeAll(async () => {
  await useTestDb();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "import-discard-"));
  app = await startApp({ env: { DATA_DIR: dataDir } });
  ownerId = (await createTestUser({ role: "dealer" })).id;
  owner = client(app, { token: await tokenFor(ownerId) });
  other = client(app, { token: await tokenFor((await createTestUser({ role: "dealer" })).id) });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An import that stored `stored` contacts (keys first, as the import writes them) and then lost its process. */
async function interruptedImport(stored: number, leaseUntil = new Date(Date.now() - 60_000)) {
  const run = await ImportRun.create({ ownerId: new Types.ObjectId(ownerId), token: `t-${new Types.ObjectId().toHexString()}`, status: "running", holder: "gone", leaseUntil, records: 10, applied: stored });
  const runId = String(run._id);
  const contacts = await Contact.insertMany(Array.from({ length: stored }, (_, i) => ({ ownerId, firstName: "Half", lastName: `Way ${i}`, email: `h${i}@example.com` })));
  await ImportKey.insertMany(contacts.map((c) => ({ ownerId, collectionName: "contacts", sourceId: new Types.ObjectId().toHexString(), targetId: c._id, runId })));
  // Planned (key written) but not stored before the process died.
  await ImportKey.create({ ownerId, collectionName: "contacts", sourceId: new Types.ObjectId().toHexString(), targetId: new Types.ObjectId(), runId });
  return runId;
}

describe("discarding an interrupted import", () => {
  it("removes what it stored, keeps what was there, is recorded on the import, and only its owner can", async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    await Contact.create({ ownerId, firstName: "Kept", lastName: "Before", email: "kept@example.com" });
    const runId = await interruptedImport(3);
    const halfWay = (await Contact.find({ ownerId, firstName: "Half" }).select({ _id: 1 }).lean()).map((c) => String(c._id));
    expect((await owner.get("/api/account/import")).json.status).toBe("interrupted");

    // Another account: no interrupted import of its own, and this one is not seen.
    expect((await other.post("/api/account/import/discard")).status).toBe(404);
    expect(await Contact.countDocuments({ ownerId })).toBe(4);

    const discarded = await owner.post("/api/account/import/discard");
    expect(discarded.status).toBe(200);
    expect(discarded.json).toMatchObject({ id: runId, status: "discarded", discarded: { by: ownerId, removed: { contacts: 3 } } });
    const left = await Contact.find({ ownerId }).lean();
    expect(left.map((c) => c.firstName)).toEqual(["Kept"]);
    expect(await ImportKey.countDocuments({ runId })).toBe(0);
    // A sync learns they are gone.
    const gone = await owner.get(`/api/deletions?updatedSince=${encodeURIComponent(start)}`);
    expect(gone.json.map((d: { kind: string; id: string }) => `${d.kind} ${d.id}`).sort()).toEqual(halfWay.map((id) => `contact ${id}`).sort());
    const stored = await ImportRun.findById(runId).lean();
    expect(stored).toMatchObject({ status: "discarded", holder: null });
    expect(String(stored?.discardedBy)).toBe(ownerId);
    expect(stored?.finishedAt).toBeInstanceOf(Date);

    // Nothing left to discard or resume; the account's latest import reads as discarded.
    expect((await owner.post("/api/account/import/discard")).status).toBe(404);
    expect((await owner.post("/api/account/import/resume")).status).toBe(404);
    expect((await owner.get("/api/account/import")).json.status).toBe("discarded");
  });

  it("refuses (409) an import still running, and leaves it and its records alone", async () => {
    const runId = await interruptedImport(2, new Date(Date.now() + 60_000));
    const refused = await owner.post("/api/account/import/discard");
    expect(refused.status).toBe(409);
    expect(await ImportKey.countDocuments({ runId })).toBe(3);
    expect((await ImportRun.findById(runId).lean())?.status).toBe("running");
    await ImportRun.deleteOne({ _id: runId });
  });
});
