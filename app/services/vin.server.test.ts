import { describe, expect, it } from "vitest";
import { VIN_MESSAGE, VIN_TEXT } from "~/schemas/vin";
import { Invalid } from "~/utils/domain-errors";
import { completeFromVin, decodeVin } from "./vin.server";

// Real VINs whose check digit holds (the first two are the standard textbook examples) and their vPIC decode.
const ACCORD = "1HGCM82633A004352";
const KONA = "KM8K2CAB4PU001140";
/** A submit that waits for the decode however slow the machine (the default wait is a few seconds). */
const SETTLED = { waitMs: 60_000 };

// First in the file: the decoder is cold (its data still opening), as after a start.
describe("completeFromVin while the decoder opens", () => {
  it("saves the form as typed at once rather than wait for the data to open", async () => {
    const started = Date.now();
    await expect(completeFromVin({ vin: ACCORD, title: "t" }, { waitMs: 50 })).resolves.toEqual({ fields: { vin: ACCORD, title: "t" }, warning: null, vehicle: "" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("decodeVin (the vPIC data shipped with the app, no outside call)", () => {
  it("decodes known VINs to year, make and model, with a valid check digit", { timeout: 60_000 }, async () => {
    await expect(decodeVin(ACCORD)).resolves.toEqual({ vin: ACCORD, checkDigitValid: true, vehicle: { year: 2003, make: "Honda", model: "Accord" } });
    await expect(decodeVin(` ${KONA.toLowerCase()} `)).resolves.toEqual({ vin: KONA, checkDigitValid: true, vehicle: { year: 2023, make: "Hyundai", model: "Kona" } });
    await expect(decodeVin("JH4KA7561PC008269")).resolves.toMatchObject({ checkDigitValid: true, vehicle: { year: 1993, make: "Acura", model: "Legend" } });
  });

  it("says a check digit fails (one character off), and still decodes the vehicle", { timeout: 60_000 }, async () => {
    await expect(decodeVin("1HGCM82633A004353")).resolves.toEqual({
      vin: "1HGCM82633A004353", checkDigitValid: false, vehicle: { year: 2003, make: "Honda", model: "Accord" },
    });
    // A European VIN with a letter where North America puts the check digit: no check digit, not refused.
    await expect(decodeVin("WVWZZZ1JZXW000001")).resolves.toMatchObject({ checkDigitValid: false });
  });

  it("refuses what is not a VIN with the form's message", async () => {
    for (const text of ["1HGCM82633A00435", "1HGCM82633A0043521", "IHGCM82633A004352", ""]) {
      const error = await decodeVin(text).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Invalid);
      expect((error as Invalid).message).toBe(VIN_MESSAGE);
    }
  });
});

describe("completeFromVin (the wizard's submit without JavaScript)", () => {
  it("fills the empty year, make and model and keeps what was typed", { timeout: 60_000 }, async () => {
    await expect(completeFromVin({ vin: ACCORD, title: "t" }, SETTLED)).resolves.toEqual({
      fields: { vin: ACCORD, title: "t", vehicleYear: 2003, vehicleMake: "Honda", vehicleModel: "Accord" },
      warning: null,
      vehicle: "2003 Honda Accord",
    });
    const kept = await completeFromVin({ vin: ACCORD, vehicleYear: 2004, vehicleMake: "HONDA", vehicleModel: "Accord EX" }, SETTLED);
    expect(kept.fields).toMatchObject({ vehicleYear: 2004, vehicleMake: "HONDA", vehicleModel: "Accord EX" });
    expect(kept.warning).toBeNull();
  });

  it("warns when the typed make or model is not the VIN's, or the check digit fails", { timeout: 60_000 }, async () => {
    const other = await completeFromVin({ vin: ACCORD, vehicleMake: "Toyota", vehicleModel: "Camry" }, SETTLED);
    expect(other).toMatchObject({ warning: VIN_TEXT.mismatch, vehicle: "2003 Honda Accord", fields: { vehicleMake: "Toyota", vehicleModel: "Camry", vehicleYear: 2003 } });
    expect((await completeFromVin({ vin: "1HGCM82633A004353" }, SETTLED)).warning).toBe(VIN_TEXT.checkDigit);
    expect((await completeFromVin({ vin: "1HGCM82633A004353", vehicleMake: "Ford" }, SETTLED)).warning).toBe(VIN_TEXT.checkDigitAndMismatch);
    await expect(completeFromVin({ title: "no VIN", vin: "" }, SETTLED)).resolves.toEqual({ fields: { title: "no VIN", vin: "" }, warning: null, vehicle: "" });
  });
});
