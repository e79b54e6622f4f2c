import { Types } from "mongoose";
import { describe, expect, it } from "vitest";
import { ownedJson } from "./owned-json.server";

describe("ownedJson", () => {
  const record = { _id: new Types.ObjectId(), ownerId: new Types.ObjectId(), createdAt: new Date("2026-11-25T09:30:00Z"), updatedAt: new Date("2026-11-25T10:00:00Z") };

  it("answers the id, the owner's id, the fields and the timestamps, in that order", () => {
    const json = ownedJson(record, undefined, { firstName: "Ada", notes: null });
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        id: String(record._id),
        ownerId: String(record.ownerId),
        firstName: "Ada",
        notes: null,
        createdAt: "2026-11-25T09:30:00.000Z",
        updatedAt: "2026-11-25T10:00:00.000Z",
      }),
    );
  });

  it("names the owner for an admin, and only then", () => {
    const owners = new Map([[String(record.ownerId), "Dealer Motors"]]);
    expect(ownedJson(record, owners, {}).owner).toEqual({ id: String(record.ownerId), name: "Dealer Motors" });
    expect("owner" in ownedJson(record, undefined, {})).toBe(false);
  });
});
