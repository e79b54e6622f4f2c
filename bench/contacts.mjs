// Contacts at scale on the embedded database: one dealer with 10,000 contacts beside four with
// 10,000 each (CONTACTS_BIG, CONTACTS_OTHERS). Measures the server-rendered /contacts (first page,
// a search that finds about 1 %, a search that finds nothing) and GET /api/contacts?limit=50 at one
// connection and at 16, an update by id, and the cold start of app + engine. The built app
// (server.mjs) runs against an engine this script starts, so the contacts can be seeded with the
// driver; loopback only, every loop bounded.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { call, freePort, measureList, ms, signInCookie, startApp, startEngine, stopProcess, timed, verdict } from "./lib.mjs";

const BIG = Number(process.env.CONTACTS_BIG ?? 10_000);
const OTHERS = Number(process.env.CONTACTS_OTHERS ?? 40_000);
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const WARMUP = Number(process.env.WARMUP ?? 300);
const { MongoClient, ObjectId } = mongoose.mongo;

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

const dir = mkdtempSync(path.join(os.tmpdir(), "bench-contacts-"));
const enginePort = await freePort();
const engine = await startEngine({ dir: path.join(dir, "db"), port: enginePort });
const appPort = await freePort();
const base = `http://127.0.0.1:${appPort}`;
const { app } = await startApp({ port: appPort, dataDir: path.join(dir, "app"), mongoUri: `mongodb://127.0.0.1:${enginePort}/bench` });
const bench = { base, app, engine, requests: REQUESTS, warmup: WARMUP };
const client = await new MongoClient(`mongodb://127.0.0.1:${enginePort}/`).connect();

try {
  await call(base, "POST", "/api/admin/create-account", {
    body: { username: "benchadmin", password: "bench-admin-1", email: "admin@example.com", firstName: "Bench", lastName: "Admin" },
  });
  const adminCookie = await signInCookie(base, "benchadmin", "bench-admin-1");
  const dealers = [];
  for (let d = 0; d < 5; d++) {
    const { text } = await call(base, "POST", "/api/admin/users", {
      cookie: adminCookie,
      body: { username: `dealer${d}`, password: "bench-dealer-1", email: `d${d}@example.com`, firstName: "Bench", lastName: `Dealer ${d}`, role: "dealer" },
    });
    dealers.push(new ObjectId(JSON.parse(text).id ?? JSON.parse(text).user.id));
  }
  const cookie = await signInCookie(base, "dealer0", "bench-dealer-1");

  const contacts = client.db("bench").collection("contacts");
  const seedStart = performance.now();
  const perOther = Math.floor(OTHERS / 4);
  for (const [d, count] of [[0, BIG], [1, perOther], [2, perOther], [3, perOther], [4, perOther]]) {
    for (let from = 0; from < count; from += 1000) {
      await contacts.insertMany(Array.from({ length: Math.min(1000, count - from) }, (_, k) => contact(dealers[d], from + k)));
    }
  }
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
  const cold = await startApp({ port: await freePort(), dataDir: mkdtempSync(path.join(dir, "cold-")) });
  await stopProcess(cold.app);

  console.log(`contacts: ${BIG} contacts in one account beside ${4 * perOther} in four others (${os.cpus().length} CPUs)`);
  console.log("| request | 1 conn p50 | 1 conn p95 | 16 conns pages/s | 16 conns p95 | CPU per request | target |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ok = r.p50one <= 50 && r.rate >= 60 && r.p95 <= 500;
    console.log(
      `| ${r.label} | ${ms(r.p50one)} | ${ms(r.p95one)} | ${r.rate.toFixed(0)} | ${ms(r.p95)} | ${r.cpu} | p50 ≤ 50 ms, ≥ 60/s, p95 ≤ 500 ms ${verdict(ok)} |`,
    );
  }
  console.log(`contacts: PUT /api/contacts/<id> p50 ${ms(write.p50)} (target ≤ 10 ms) ${verdict(write.p50 <= 10)}`);
  console.log(`contacts: cold start of app + engine to /healthz 200: ${(cold.startMs / 1000).toFixed(2)} s (target ≤ 5 s) ${verdict(cold.startMs <= 5000)}`);
} catch (error) {
  console.error(`contacts: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
  await stopProcess(app);
  await stopProcess(engine);
  rmSync(dir, { recursive: true, force: true });
}
