// Contacts at scale: one dealer account with 1,000 contacts; latency of the server-rendered
// /contacts page with a search (?q=…) at 16 concurrent connections. Spawns the built app
// (server.mjs, BUILD_DIR or ./build) with its own embedded database; loopback traffic only.
//   REQUESTS (default 320) bounds the measured requests; CONTACTS (default 1000) the seed size.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONTACTS = Number(process.env.CONTACTS ?? 1000);
const REQUESTS = Number(process.env.REQUESTS ?? 320);
const CONCURRENCY = 16;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-contacts-"));
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production" };
delete env.MONGODB_URI;
const app = spawn(process.execPath, ["server.mjs"], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
let stderr = "";
app.stderr.on("data", (d) => (stderr += d));

async function stop() {
  if (app.exitCode === null) {
    app.kill("SIGTERM");
    await new Promise((r) => app.once("exit", r));
  }
  rmSync(dataDir, { recursive: true, force: true });
}

async function call(method, url, { body, cookie } = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    redirect: "manual",
    headers: {
      ...(body ? { "Content-Type": "application/json" } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return { res, text };
}

async function signIn(username, password) {
  const { res } = await call("POST", "/api/admin/login", { body: { username, password } });
  return res.headers.get("set-cookie").split(";")[0];
}

/** Runs `task(i)` for i < total with `concurrency` in flight at once. */
async function pool(total, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

const FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
  "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Aisha"];
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin"];
const COMPANY = ["Acme Motors", "Springfield Auto", "Northside Collision", "Fleet Partners", "Rapid Rentals",
  "Coastal Leasing", "Metro Cabs", "Summit Dealers"];

function contact(i) {
  const first = FIRST[i % FIRST.length];
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
  return {
    firstName: first,
    lastName: `${last}${i >= 400 ? ` ${Math.floor(i / 400)}` : ""}`,
    email: `${first}.${last}.${i}@example.com`.toLowerCase(),
    ...(i % 3 !== 0 ? { phone: `555-${String(1000 + i).padStart(4, "0")}` } : {}),
    ...(i % 5 < 3 ? { companyName: COMPANY[i % COMPANY.length] } : {}),
    ...(i % 4 === 0 ? { address: `${100 + i} Main Street, Springfield` } : {}),
    ...(i % 2 === 0 ? { notes: `Customer since ${2010 + (i % 15)}. `.repeat(6) } : {}),
  };
}

/** CPU seconds used so far by the app and by its embedded database (Linux /proc; null elsewhere). */
function cpuSeconds() {
  if (!existsSync("/proc/self/stat")) return null;
  const ticks = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
    } catch {
      return null;
    }
  };
  const db = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((pid) => ticks(pid))
    .filter((t) => t && t.ppid === app.pid);
  return { app: ticks(app.pid)?.cpu ?? 0, db: db.reduce((sum, t) => sum + t.cpu, 0) };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function measure(label, urls, cookie, { requests = REQUESTS, concurrency = CONCURRENCY } = {}) {
  // Warm-up, not measured.
  for (const url of urls) await call("GET", url, { cookie });
  const times = [];
  let bytes = 0;
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  await pool(requests, concurrency, async (i) => {
    const url = urls[i % urls.length];
    const start = performance.now();
    const { text } = await call("GET", url, { cookie });
    times.push(performance.now() - start);
    bytes += text.length;
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds();
  times.sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(1)} ms`;
  // CPU per request does not depend on what else the machine is doing; latency does.
  const perRequest =
    cpu0 && cpu1
      ? `, CPU per request: app ${ms(((cpu1.app - cpu0.app) * 1000) / requests)}, database ${ms(((cpu1.db - cpu0.db) * 1000) / requests)}`
      : "";
  console.log(
    `contacts: ${label}: ${requests} requests, ${concurrency} concurrent: p50 ${ms(pct(times, 50))}, ` +
      `p95 ${ms(pct(times, 95))}, max ${ms(times[times.length - 1])}, ${(requests / wall).toFixed(0)} req/s, ` +
      `avg page ${(bytes / requests / 1024).toFixed(0)} KiB${perRequest}`,
  );
  return { p50: pct(times, 50), p95: pct(times, 95) };
}

try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`app exited:\n${stderr}`);
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`app not healthy within 60 s:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  // An admin (first-run set-up) creates the dealer whose account holds the contacts.
  await call("POST", "/api/admin/create-account", {
    body: { username: "benchadmin", password: "bench-admin-1", email: "admin@example.com", firstName: "Bench", lastName: "Admin" },
  });
  const adminCookie = await signIn("benchadmin", "bench-admin-1");
  await call("POST", "/api/admin/users", {
    cookie: adminCookie,
    body: { username: "benchdealer", password: "bench-dealer-1", email: "dealer@example.com", firstName: "Bench", lastName: "Dealer", role: "dealer" },
  });
  const cookie = await signIn("benchdealer", "bench-dealer-1");

  const seedStart = performance.now();
  await pool(CONTACTS, CONCURRENCY, (i) => call("POST", "/api/contacts", { cookie, body: contact(i) }));
  console.log(`contacts: seeded ${CONTACTS} contacts through POST /api/contacts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // The whole account renders in one request: summary over all 1,000, first page of cards.
  const { text: page } = await call("GET", "/contacts", { cookie });
  const total = page.match(/aria-label="Total Contacts"[\s\S]*?data-testid="stat-value"[^>]*>(\d+)</)?.[1];
  if (Number(total) !== CONTACTS) throw new Error(`/contacts shows Total Contacts ${total}, expected ${CONTACTS}`);
  const { text: found } = await call("GET", "/contacts?q=smith", { cookie });
  if (!found.includes("Smith")) throw new Error("/contacts?q=smith found nothing");

  const searches = ["smith", "acme motors", "555-1", "jennifer garcia", "example.com", "nobody-matches"].map(
    (q) => `/contacts?q=${encodeURIComponent(q)}`,
  );
  // One at a time first: the latency of a page on its own, without queueing.
  await measure("GET /contacts?q= one at a time", searches, cookie, { requests: 48, concurrency: 1 });
  const search = await measure("GET /contacts?q= (6 searches, server-rendered)", searches, cookie);
  await measure("GET /contacts (first page of 1,000)", ["/contacts"], cookie);
  await measure("GET /api/contacts?q= (JSON)", searches.map((u) => u.replace("/contacts", "/api/contacts")), cookie);
  console.log(
    `contacts: search page p50 ${search.p50.toFixed(1)} ms, p95 ${search.p95.toFixed(1)} ms ` +
      `(${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)})`,
  );
} catch (error) {
  console.error(`contacts: ${error.message}`);
  process.exitCode = 1;
} finally {
  await stop();
}
