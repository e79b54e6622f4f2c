// Run by bench/quote.mjs (bundled with esbuild): the pricing service in process, as an analysis calls
// it (quoteForVendor: the vendor check, its active rules, the verified training figures and its
// validated learning records, then the pricing engine), against the bench's embedded database.
// Prints one JSON line with the figures.
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "../app/schemas/damage";
import { quoteForVendor } from "../app/services/vendors.server";
import { closeDb, db } from "../app/utils/db.server";

const QUOTES = Number(process.env.QUOTES ?? 1000);
const WARMUP = 50;
const vendorId = process.env.VENDOR_ID ?? "";

await db().ready;
const times: number[] = [];
for (let n = 0; n < WARMUP + QUOTES; n++) {
  // The same rotation of five damages as the HTTP measurement.
  const damages = Array.from({ length: 5 }, (_, k) => ({
    damageType: DAMAGE_TYPES[(n + k * 3) % DAMAGE_TYPES.length],
    severity: SEVERITIES[(n + k) % SEVERITIES.length],
    location: DAMAGE_LOCATIONS[(n + k) % DAMAGE_LOCATIONS.length],
  }));
  const started = performance.now();
  const quote = await quoteForVendor(vendorId, { damages, vehicleMake: n % 2 ? "BMW" : "Toyota" });
  if (n >= WARMUP) times.push(performance.now() - started);
  if (quote.lines.length !== 5 || !quote.complete) throw new Error(`unexpected quote: ${JSON.stringify(quote).slice(0, 300)}`);
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
console.log(JSON.stringify({ quotes: QUOTES, p50: at(50), p95: at(95) }));
await closeDb();
