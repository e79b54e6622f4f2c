import { Types } from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/accounts";
import { useTestDb } from "../../tests/test-db";
import { createLinkImport, deleteLinkImportsBefore, LinkImport, readLinkImport } from "./link-import.server";

// Housekeeping's sweep of the link imports the upload widget followed (decision 0068): the ones older
// than the cut-off go, the recent ones stay (a sanitised filter once refused the date range: nothing went).

describe("link imports' sweep", () => {
  let ownerId: string;
  beforeAll(async () => {
    await useTestDb();
    ownerId = (await createTestUser({ role: "dealer" })).id;
  });

  it("deletes the imports older than the cut-off and keeps the recent ones", async () => {
    const old = `old-${new Types.ObjectId().toHexString()}`;
    const recent = `recent-${new Types.ObjectId().toHexString()}`;
    await createLinkImport(old, ownerId);
    await createLinkImport(recent, ownerId);
    await LinkImport.updateOne({ _id: old }, { $set: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    await deleteLinkImportsBefore(new Date(Date.now() - 86_400_000));
    expect(await readLinkImport(old)).toBeNull();
    expect(await readLinkImport(recent)).not.toBeNull();
  });
});
