import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../tests/app-server";

// The app builds every declared index itself at start-up: production has no test harness to do it.
describe("database start-up", () => {
  const uri = new URL(process.env.MONGODB_URI!);
  uri.pathname = `${uri.pathname}_startup`;
  let app: RunningApp;
  let client: InstanceType<typeof mongoose.mongo.MongoClient>;
  beforeAll(async () => {
    client = await new mongoose.mongo.MongoClient(uri.toString()).connect();
    // A database an earlier version built: its webhook deliveries' estimate-line index, since replaced.
    await client.db().collection("webhookdeliveries").createIndex({ endpointId: 1, orderKey: 1, status: 1, eventAt: 1 });
    app = await startApp({ mongoUri: uri.toString() });
  });
  afterAll(async () => {
    await client?.close();
    await app?.stop();
  });

  it("creates the lists' indexes on a fresh database", async () => {
    const names = async (collection: string) => (await client.db().collection(collection).indexes()).map((i) => i.name);
    expect(await names("contacts")).toEqual(
      expect.arrayContaining(["ownerId_1_createdAt_-1", "ownerId_1_firstName_1_lastName_1_email_1_companyName_1_phone_1_createdAt_-1"]),
    );
    // The lists paged by cursor: the owner, then the order with its tie-breaker (docs/decisions/0044).
    for (const collection of ["packages", "emaillogs", "emailtemplates"]) expect(await names(collection), collection).toContain("ownerId_1_createdAt_-1__id_-1");
    expect(await names("trainingitems")).toContain("createdAt_-1__id_-1");
    expect(await names("uploads")).toEqual(expect.arrayContaining(["ownerId_1_draft_1_state_1", "key_1"]));
  });

  it("drops an index an earlier version declared and this one does not", async () => {
    const names = (await client.db().collection("webhookdeliveries").indexes()).map((i) => i.name);
    expect(names).toContain("status_1_endpointId_1_orderKey_1_eventAt_1");
    expect(names).not.toContain("endpointId_1_orderKey_1_status_1_eventAt_1");
  });
});
