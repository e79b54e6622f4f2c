// Contacts at scale on the embedded database: one dealer with 10,000 contacts beside four with
// 10,000 each (CONTACTS_BIG, CONTACTS_OTHERS). Measures the server-rendered /contacts (first page,
// a search that finds about 1 %, a search that finds nothing) and GET /api/contacts?limit=50 at one
// connection and at 16, an update by id, and the cold start of app + engine. The built app
// (server.mjs) runs against an engine this script starts, so the contacts can be seeded with the
// driver; loopback only, every loop bounded.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchDealers, call, freePort, measureList, ms, printListTable, seedOwners, startApp, startStack, stopProcess, timed, verdict } from "./lib.mjs";

const BIG = Number(process.env.CONTACTS_BIG ?? 10_000);
const OTHERS = Number(process.env.CONTACTS_OTHERS ?? 40_000);
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const WARMUP = Number(process.env.WARMUP ?? 300);

const FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
  "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Aisha"];
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin"];
const COMPANY = ["Acme Motors", "Springfield Auto", "Northside Collision", "Fleet Partners", "Rapid Rentals",
  "Coastal Leasing", "Metro Cabs", "Summit Dealers"];

/** About 1 % of contacts carry the rare last name "Okonkwo"; half have a phone, half a company. */
function contact(ownerId, i) {
  const first = FIRST[i % FIRST.length];
  const last = i % 100 === 7 ? "Okonkwo" : LAST[Math.floor(i / FIRST.length) % LAST.length];
  const at = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000);
  return {
    ownerId,
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${i}@example.com`.toLowerCase(),
    ...(i % 2 === 0 ? { phone: `555-${String(1000 + (i % 9000)).padStart(4, "0")}` } : {}),
    ...(i % 2 === 1 ? { companyName: COMPANY[i % COMPANY.length] } : {}),
    ...(i % 4 === 0 ? { address: `${100 + i} Main Street, Springfield` } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

const stack = await startStack("contacts");
const { base, app, db } = stack;
const bench = { ...stack, requests: REQUESTS, warmup: WARMUP };

try {
  const { dealers, cookie } = await benchDealers(base);
  const seedStart = performance.now();
  const perOther = await seedOwners(db.collection("contacts"), dealers, { big: BIG, others: OTHERS }, contact);
  console.log(`contacts: seeded ${BIG} + ${4 * perOther} contacts with the driver in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // The screen shows the whole account: the summary counts all 10,000.
  const { text: page } = await call(base, "GET", "/contacts", { cookie });
  const total = /aria-label="Total Contacts"[\s\S]*?data-testid="stat-value"[^>]*>([\d,]+)</.exec(page)?.[1];
  if (Number(total?.replace(/,/g, "")) !== BIG) throw new Error(`/contacts shows Total Contacts ${total}, expected ${BIG}`);

  const rows = [
    await measureList(bench, "/contacts (page 1)", ["/contacts"], cookie),
    await measureList(bench, "/contacts?q=okonkwo (1 % match)", ["/contacts?q=okonkwo"], cookie),
    await measureList(bench, "/contacts?q=nobody (no match)", ["/contacts?q=nobody-matches"], cookie),
    await measureList(bench, "/api/contacts?limit=50", ["/api/contacts?limit=50"], cookie),
  ];

  const { text: list } = await call(base, "GET", "/api/contacts?limit=1", { cookie });
  const target = JSON.parse(list)[0];
  let n = 0;
  const write = await timed(
    () => call(base, "PUT", `/api/contacts/${target.id}`, { cookie, body: { firstName: "Updated", lastName: `Name ${n++}`, email: "updated@example.com" } }),
    { runs: 50, warmup: 5 },
  );

  await stopProcess(app);
  const cold = await startApp({ port: await freePort(), dataDir: mkdtempSync(path.join(stack.dir, "cold-")) });
  await stopProcess(cold.app);

  console.log(`contacts: ${BIG} contacts in one account beside ${4 * perOther} in four others (${os.cpus().length} CPUs)`);
  printListTable(rows, "pages/s");
  console.log(`contacts: PUT /api/contacts/<id> p50 ${ms(write.p50)} (target ≤ 10 ms) ${verdict(write.p50 <= 10)}`);
  console.log(`contacts: cold start of app + engine to /healthz 200: ${(cold.startMs / 1000).toFixed(2)} s (target ≤ 5 s) ${verdict(cold.startMs <= 5000)}`);
} catch (error) {
  console.error(`contacts: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await stack.stop();
}
