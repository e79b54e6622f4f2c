import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startSignedInApp } from "../../tests/signed-in-app";

let app: RunningApp;
let dealer: ReturnType<typeof client>;

beforeAll(async () => {
  ({ app, dealer } = await startSignedInApp());
});
afterAll(() => app?.stop());

describe("GET /api/vin/{vin}", () => {
  it("answers the year, make and model decoded on the server, and whether the check digit holds", { timeout: 60_000 }, async () => {
    const res = await dealer.get("/api/vin/1hgcm82633a004352");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ vin: "1HGCM82633A004352", checkDigitValid: true, vehicle: { year: 2003, make: "Honda", model: "Accord" } });
    const typo = await dealer.get("/api/vin/1HGCM82633A004353");
    expect(typo.status).toBe(200);
    expect(typo.json).toMatchObject({ checkDigitValid: false, vehicle: { make: "Honda" } });
  });

  it("refuses what is not a VIN with a 400 naming the field, and anonymous callers with a 401", async () => {
    for (const text of ["1HGCM82633A00435", "1HGCM82633AO04352", "not-a-vin"]) {
      const res = await dealer.get(`/api/vin/${text}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: "VIN must be 17 characters without I, O or Q", errors: { vin: "VIN must be 17 characters without I, O or Q" } });
    }
    expect((await client(app).get("/api/vin/1HGCM82633A004352")).status).toBe(401);
  });
});
