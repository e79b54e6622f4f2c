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
    app = await startApp({ mongoUri: uri.toString() });
    client = await new mongoose.mongo.MongoClient(uri.toString()).connect();
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
    expect(await names("packages")).toEqual(expect.arrayContaining(["ownerId_1_createdAt_-1"]));
    expect(await names("uploads")).toEqual(expect.arrayContaining(["ownerId_1_draft_1_state_1", "key_1"]));
  });
});
