/**
 * What the VIN decode says (issue 39 item 4, docs/decisions/0032), shared by the server (API, the
 * wizard's no-JS submit) and the browser (the wizard's live decode): the messages are catalogue keys.
 */
export const VIN_TEXT = {
  checkDigit:
    "This VIN's check digit (its 9th character) does not match the others: check the VIN for a typo. Vehicles built for outside North America may not use a check digit.",
  mismatch: "The VIN decodes as {{vehicle}}, not the make or model entered.",
  checkDigitAndMismatch:
    "This VIN's check digit (its 9th character) does not match the others, and the VIN decodes as {{vehicle}}, not the make or model entered.",
  unknown: "This VIN is not in the vehicle data: enter the vehicle yourself.",
  decoded: "The VIN decodes as",
  apply: "Use the VIN's vehicle",
  filled: "Filled from the VIN",
  toastTitle: "Check the VIN",
} as const;

/** The form's rule (the only refusal): 17 of A–Z/0–9 without I, O, Q (they read as 1 and 0). Kept here, free of zod, for the browser. */
export const VIN_MESSAGE = "VIN must be 17 characters without I, O or Q";
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

/** A VIN as typed: trimmed, upper-cased (the form's and the API's reading). */
export const normalizeVin = (text: string) => text.trim().toUpperCase();

export interface VinVehicle {
  year: number | null;
  make: string | null;
  model: string | null;
}

/** What `GET /api/vin/{vin}` answers and the wizard shows. */
export interface VinDecode {
  vin: string;
  /** False when the 9th character is not the check digit ISO 3779 / 49 CFR 565 computes. */
  checkDigitValid: boolean;
  /** Null when the vPIC data does not know the VIN's manufacturer or pattern. */
  vehicle: VinVehicle | null;
}

export const vehicleLabel = (v: VinVehicle) => [v.year, v.make, v.model].filter((part) => part !== null && part !== "").join(" ");

/** Letters and digits only, lower-cased: "F-150" and "f150" are the same model. */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** One names the other ("Model 3" / "Tesla Model 3", "Accord" / "Accord Sedan"): not a disagreement. */
const agrees = (typed: string | null | undefined, decoded: string | null) => {
  const a = squash(typed ?? "");
  const b = squash(decoded ?? "");
  return a === "" || b === "" || a.includes(b) || b.includes(a);
};

/** True when the typed make or model is not the VIN's (blank fields never disagree). */
export function disagrees(decode: VinDecode, typed: { vehicleMake?: string | null; vehicleModel?: string | null }) {
  const v = decode.vehicle;
  if (!v) return false;
  return !agrees(typed.vehicleMake, v.make) || !agrees(typed.vehicleModel, v.model);
}

/** The one warning a decode gives for these typed values, as a catalogue key (null: nothing to say). */
export function vinWarning(decode: VinDecode, typed: { vehicleMake?: string | null; vehicleModel?: string | null }) {
  const mismatch = disagrees(decode, typed);
  if (!decode.checkDigitValid && mismatch) return VIN_TEXT.checkDigitAndMismatch;
  if (!decode.checkDigitValid) return VIN_TEXT.checkDigit;
  if (mismatch) return VIN_TEXT.mismatch;
  return null;
}
