import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../app-server";
import { signIn } from "../accounts";
import { OWNER_SCOPED, VENDOR_OWNED, routes, type Caller, type Method, type RouteEntry } from "../route-registry";
import { useTestDb } from "../test-db";
import {
  call,
  documentCounts,
  plantForeignReferences,
  pool,
  previewAsDealer,
  seedWorld,
  validBody,
  type Account,
  type Answer,
  type CallerName,
  type World,
} from "./world";

// The role × route matrix, generated from tests/route-registry.ts: every method of every route, called
// by each caller, must answer what the registry's roles say; another account's id is not found; no
// answer to anyone else holds the first dealer's (or the first vendor's) data; a cookie write from
// another site is refused and changes nothing.

let app: RunningApp;
let world: World;
const figures = { requests: 0, leaks: 0, fiveHundreds: 0 };

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  world = await seedWorld(app);
});
afterAll(() => app?.stop());

const CALLERS = ["anonymous", "dealer", "vendor", "admin", "adminAsDealer"] as const;
type MatrixCaller = (typeof CALLERS)[number];

/** The role a caller is checked as on a route (a preview acts as dealer, except where the real role decides). */
const roleOn = (route: RouteEntry, caller: MatrixCaller): Caller =>
  caller === "adminAsDealer" ? (route.realRole ? "admin" : "dealer") : caller;

/** Whose document a caller's own call names: its own where it has one, else one it may reach. */
function ownerFor(route: RouteEntry, caller: MatrixCaller): Account {
  const { accounts } = world;
  if (route.owned && VENDOR_OWNED.has(route.owned)) return caller === "admin" ? accounts.vendorB : accounts.vendor;
  if (route.owned === "trainingItem") return accounts.admin;
  if (route.owned === "vendor") return accounts.vendor;
  // An admin's account has no members: it names the first dealer's (and is refused by its role).
  if (route.owned === "member" && (caller === "admin" || caller === "adminAsDealer")) return accounts.dealer;
  return caller === "anonymous" ? accounts.dealer : accounts[caller];
}

function urlFor(route: RouteEntry, method: Method, owner: Account) {
  const id = route.owned === "user" ? world.spareUserId : route.owned ? owner.docs[route.owned] : undefined;
  let path = route.path
    .replace(":id", id ?? "")
    .replace(":vendorId", world.accounts.vendor.id)
    .replace(":uploadId", "0")
    .replace(":partNumber", "1");
  if (path === "/media/*") path = `/media/${id}`;
  if (path === "/*") path = "/no-such-page";
  // A form post to an index route says so (`?index`); without it Remix hands it to the layout.
  if (route.file.endsWith("._index.tsx") && method !== "GET") path += "?index";
  // Vendor-keyed lists name the vendor (a vendor's own is implied, the others must say).
  if (method === "GET" && /^\/api\/(vendor-pricing-rules|vendor-packages|ai-pricing-learning)$/.test(path)) {
    path += `?vendorId=${world.accounts.vendor.id}`;
  }
  return path;
}

/** The request a client of that kind sends: JSON to the API, a form post or an HTML page to a screen. */
async function request(route: RouteEntry, method: Method, path: string, cookie: string | undefined, extra: Record<string, string> = {}) {
  figures.requests += 1;
  if (route.kind === "screen") {
    if (method === "GET") return call(app, method, path, { cookie, headers: { Accept: "text/html", ...extra } });
    return call(app, method, path, {
      cookie,
      body: "intent=matrix",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, ...extra },
    });
  }
  if (method === "GET") return call(app, method, path, { cookie, headers: { Accept: "application/json", ...extra } });
  const body = validBody(route, method, world);
  return call(app, method, path, {
    cookie,
    body: JSON.stringify(body ?? {}),
    headers: { "Content-Type": "application/json", Origin: app.url, ...extra },
  });
}

/**
 * What an admitted caller's call answers with the matrix's request (a valid body where the registry's
 * writes have one, else an empty one, so validation answers). Unlisted: 200.
 */
const ADMITTED: Record<string, number> = {
  "GET /api/login": 302,
  "GET /logout": 302,
  "POST /logout": 302,
  "GET /*": 404,
  "GET /api/uploads/s3/sts": 404,
  "GET /api/uploads/s3/params": 400,
  // A link to a private address (tests/security/world.ts): admitted, then refused by the outbound rule.
  "POST /api/uploads/import": 400,
  "POST /api/uploads/url/meta": 400,
  "GET /api/uploads/s3/multipart/:uploadId": 400,
  "GET /api/uploads/s3/multipart/:uploadId/batch": 400,
  "GET /api/uploads/s3/multipart/:uploadId/:partNumber": 400,
  "DELETE /api/uploads/s3/multipart/:uploadId": 400,
  "POST /api/uploads/s3/multipart/:uploadId/complete": 400,
  "GET /api/objects/signed": 403,
  "POST /api/objects/signed": 403,
  "PUT /api/objects/signed": 403,
  "POST /api/admin/login": 400,
  "POST /api/admin/create-account": 400,
  "POST /api/admin/create-user": 400,
  "POST /api/admin/users": 400,
  "PUT /api/admin/change-credentials": 400,
  "POST /api/admin/switch-role": 400,
  "POST /api/assessments": 400,
  "POST /api/objects/complete": 400,
  "POST /api/admin/ai-training-data": 400,
  "PUT /api/admin/ai-training-data/:id": 400,
  "POST /api/contacts": 201,
  "POST /api/packages": 201,
  "POST /api/auth/tokens": 201,
  "POST /api/members": 201,
  // The matrix's empty body names no URL; a redelivery is accepted and queued.
  "POST /api/webhooks": 400,
  "POST /api/webhook-deliveries/:id/redeliver": 202,
  "PUT /api/auth/user": 400,
  // The AI provider needs its model (an empty body saves nothing).
  "PUT /api/admin/ai-provider": 400,
  "PUT /api/auth/preferences": 400,
  "PUT /api/auth/password": 400,
  "POST /api/account/import": 415,
  // The world's accounts never imported: no import to show, resume or discard (decision 0059).
  "GET /api/account/import": 404,
  "POST /api/account/import/resume": 404,
  "POST /api/account/import/discard": 404,
  // The logo takes a multipart form only; the matrix sends JSON.
  "POST /api/auth/logo": 415,
  "POST /api/email-templates": 201,
  "POST /api/email-templates/:id/copy": 201,
  // The world's email log was sent: only one of unknown delivery is resent or marked delivered (409).
  "POST /api/email-logs/:id/resend": 409,
  "POST /api/email-logs/:id/mark-delivered": 409,
  // The matrix's empty body names no contact.
  "POST /api/assessments/:id/send-email": 400,
  "POST /api/vendor-pricing-rules": 201,
  "POST /api/vendor-packages": 201,
  "POST /api/ai-pricing-learning": 201,
  // The world's assessment is not completed yet (409); the path's ":linkId" names no link (404).
  "POST /api/assessments/:id/links": 409,
  "DELETE /api/assessments/:id/links/:linkId": 404,
  // The path's ":questionId" names no question of the estimate (404).
  "POST /api/assessments/:id/questions/:questionId/answer": 404,
  // ":vin" is not a VIN.
  "GET /api/vin/:vin": 400,
  // The customer's page: the path's ":token" is no token of ours (404); a JSON body is not its form (415).
  "GET /e/:token": 404,
  "GET /e/:token/pdf": 404,
  "GET /e/:token/logo": 404,
  "GET /e/:token/photos/:n": 404,
  "POST /e/:token": 415,
  // An invite's page: the path's ":token" is no invite (404); a JSON body is not its form (415).
  "GET /invite/:token": 404,
  "POST /invite/:token": 415,
  "POST /login": 422,
  "POST /admin/login": 422,
  "POST /admin/setup": 422,
  // Screens answer the matrix's unknown intent with the form's error; the dashboard and the wizard redirect back.
  "POST /": 302,
  "POST /contacts": 400,
  "POST /estimates": 400,
  "POST /packages": 400,
  "POST /settings": 400,
  "POST /email": 400,
  "POST /vendor-ai-training": 400,
  "POST /ai-training": 400,
  "POST /admin-settings": 400,
  "POST /user-management": 400,
  "POST /upload": 302,
  // The confirm step: without an estimate it goes back to Estimates (an empty form too, after its 400).
  "GET /send": 302,
  "POST /send": 302,
  "GET /settings/import": 302,
  "POST /settings/import": 302,
  // The logo's form posts back to Settings → Profile; its address alone goes there too.
  "GET /settings/logo": 302,
  "POST /settings/logo": 302,
};

function expected(route: RouteEntry, method: Method, caller: MatrixCaller): number {
  const admitted = route.methods[method] ?? [];
  const role = roleOn(route, caller);
  if (!admitted.includes(role)) {
    if (role !== "anonymous") return 403;
    return route.kind === "screen" ? 302 : 401;
  }
  return ADMITTED[`${method} ${route.path}`] ?? 200;
}

interface Outcome {
  /** `METHOD path` as requested (an id the caller sent itself is no leak when echoed). */
  label: string;
  /** `METHOD pattern` of the registry's entry. */
  key?: string;
  caller: CallerName;
  answer: Answer;
}

/** Text of the first dealer's and first vendor's documents, and who may legitimately see it. */
function leakedIn(outcome: Outcome) {
  const { dealer, vendor } = world.accounts;
  const found: string[] = [];
  const marks = (a: Account) => [a.secret, ...Object.values(a.docs)].filter((m): m is string => Boolean(m) && !outcome.label.includes(m));
  // The admin sees everyone's; dealers see vendors' active rules (to price estimates) but no other account's data.
  if (!["dealer", "admin"].includes(outcome.caller)) {
    for (const mark of marks(dealer)) if (outcome.answer.text.includes(mark)) found.push(mark);
    if (outcome.answer.bytes.includes(dealer.thumbMark)) found.push("the first dealer's photo");
  }
  if (outcome.caller === "vendorB") {
    for (const mark of marks(vendor)) if (outcome.answer.text.includes(mark)) found.push(mark);
    if (outcome.answer.bytes.includes(vendor.thumbMark)) found.push("the first vendor's photo");
  }
  return found;
}

function check(outcomes: Outcome[], want: (o: Outcome) => number) {
  const wrong = outcomes.filter((o) => o.answer.status !== want(o)).map((o) => `${o.label} as ${o.caller}: ${o.answer.status}, expected ${want(o)} ${o.answer.text.slice(0, 120)}`);
  const leaks = outcomes.flatMap((o) => leakedIn(o).map((mark) => `${o.label} as ${o.caller} shows ${mark}`));
  figures.leaks += leaks.length;
  figures.fiveHundreds += outcomes.filter((o) => o.answer.status >= 500 && o.answer.status !== 501).length;
  expect(wrong).toEqual([]);
  expect(leaks).toEqual([]);
}

const calls = routes.flatMap((route) => (Object.keys(route.methods) as Method[]).map((method) => ({ route, method })));

// Each test below sends hundreds of requests, growing with the route registry: 120 s each, not the default 20.
describe("role × route matrix", () => {
  // First: the other tests end by deleting the callers' uploads.
  it("follows stored references: another account's photo named in one's own assessment is never read, embedded or deleted", async () => {
    await plantForeignReferences(world);
    const { dealer } = world.accounts;
    const holders = (["dealerB", "vendor", "vendorB", "admin", "adminAsDealer"] as const).map((name) => ({ name, account: world.accounts[name] }));
    const outcomes: Outcome[] = [];
    const ask = async (caller: CallerName, cookie: string, method: string, path: string, accept = "application/json") => {
      figures.requests += 1;
      const answer = await call(app, method, path, { cookie, headers: { Accept: accept, ...(method === "GET" ? {} : { Origin: app.url }) } });
      outcomes.push({ label: `${method} ${path}`, caller, answer });
      return answer;
    };
    try {
      for (const { name, account } of holders) {
        const id = account.planted!.id;
        expect((await ask(name, account.cookie, "GET", `/api/assessments/${id}`)).status).toBe(200);
        const pdf = await ask(name, account.cookie, "GET", `/api/assessments/${id}/estimate.pdf`, "application/pdf");
        expect(pdf.status).toBe(200);
        // Its own photo is in its PDF, the first dealer's is not.
        expect(pdf.bytes.includes(account.planted!.mark), `${name}'s own photo in its PDF`).toBe(true);
        expect((await ask(name, account.cookie, "GET", `/estimates?view=${id}`, "text/html")).status).toBe(200);
      }
      // Nobody but the first dealer gets its photo's bytes through these documents, nor (but an admin, whose lists show every account's) its text.
      const leaks = outcomes
        .filter((o) => o.answer.bytes.includes(dealer.thumbMark) || (o.caller !== "admin" && o.answer.text.includes(dealer.secret)))
        .map((o) => `${o.label} as ${o.caller}`);
      figures.leaks += leaks.length;
      expect(leaks).toEqual([]);
    } finally {
      // Deleting each planted assessment deletes its own new photo only (nothing else names it), never the first dealer's.
      for (const { name, account } of holders) {
        expect((await ask(name, account.cookie, "DELETE", `/api/assessments/${account.planted!.id}`)).status).toBe(200);
      }
      figures.fiveHundreds += outcomes.filter((o) => o.answer.status >= 500).length;
    }
    expect((await call(app, "GET", `/media/${dealer.docs.upload}`, { cookie: dealer.cookie })).status).toBe(200);
    expect(outcomes.filter((o) => o.answer.status >= 500)).toEqual([]);
  }, 120_000);

  it("another account's ids are not found, by any method, and nothing of it shows", async () => {
    const { dealer, vendor } = world.accounts;
    const foreign = calls.filter(({ route }) => route.owned && OWNER_SCOPED.has(route.owned));
    const jobs = foreign.flatMap(({ route, method }) => {
      const owner = VENDOR_OWNED.has(route.owned!) ? vendor : dealer;
      // A preview is refused by its real role before any id is looked at where that decides (the test above).
      const others: CallerName[] = VENDOR_OWNED.has(route.owned!) ? ["vendorB"] : route.realRole ? ["dealerB", "vendor"] : ["dealerB", "vendor", "adminAsDealer"];
      return others.map((caller) => ({ route, method, caller, path: urlFor(route, method, owner) }));
    });
    const outcomes: Outcome[] = await pool(jobs, 6, async ({ route, method, caller, path }) => ({
      label: `${method} ${path}`,
      caller,
      answer: await request(route, method, path, world.accounts[caller as Exclude<CallerName, "anonymous">].cookie),
    }));
    // The screens that take an id in the query: a dialog on another's contact shows none, another's assessment is not found.
    const screens: Record<string, number> = {
      [`GET /contacts?edit=${dealer.docs.contact}`]: 200,
      [`GET /packages?edit=${dealer.docs.package}`]: 200,
      [`GET /upload?assessment=${dealer.docs.assessment}`]: 404,
      [`GET /media/${dealer.docs.upload}/thumb`]: 404,
    };
    for (const label of Object.keys(screens)) {
      figures.requests += 1;
      const answer = await call(app, "GET", label.slice(4), { cookie: world.accounts.dealerB.cookie, headers: { Accept: "text/html" } });
      outcomes.push({ label, caller: "dealerB", answer });
    }
    check(outcomes, (o) => screens[o.label] ?? 404);

    // And the first dealer's documents are as they were.
    const own = (path: string) => call(app, "GET", path, { cookie: dealer.cookie });
    expect(JSON.parse((await own(`/api/contacts/${dealer.docs.contact}`)).text).firstName).toBe(dealer.secret);
    expect((await own(`/api/assessments/${dealer.docs.assessment}`)).status).toBe(200);
    expect((await own(`/media/${dealer.docs.upload}`)).status).toBe(200);
  }, 120_000);

  it("each caller gets what the registry's roles say, on every method of every route", async () => {
    const jobs = calls.flatMap(({ route, method }) => CALLERS.map((caller) => ({ route, method, caller })));
    const run = async ({ route, method, caller }: (typeof jobs)[number]): Promise<Outcome> => {
      const path = urlFor(route, method, ownerFor(route, caller));
      let cookie = caller === "anonymous" ? undefined : world.accounts[caller].cookie;
      // A logout ends the session it is sent with: it gets one of its own.
      if (route.endsSession && cookie) {
        const a = world.accounts[caller as Exclude<MatrixCaller, "anonymous">];
        cookie = caller === "adminAsDealer" ? await previewAsDealer(app, a.username, a.password) : await signIn(app, a.username, a.password);
      }
      return { label: `${method} ${path}`, key: `${method} ${route.path}`, caller, answer: await request(route, method, path, cookie) };
    };
    // Reads and refusals first, all at once; then the admitted writes; an assessment's analysis, Approve
    // and Reject one after the other (each needs the status the one before leaves); deletions last.
    const admitted = (j: (typeof jobs)[number]) => (j.route.methods[j.method] ?? []).includes(roleOn(j.route, j.caller));
    const STEPS = ["/analyze", "/approve", "/reject"];
    const rank = (j: (typeof jobs)[number]) =>
      j.method === "GET" || !admitted(j) ? 0 : j.method === "DELETE" ? 5 : 1 + STEPS.findIndex((s) => j.route.path.endsWith(s)) + 1;
    const phases = [0, 1, 2, 3, 4, 5].map((r) => jobs.filter((j) => rank(j) === r));
    const outcomes: Outcome[] = [];
    for (const phase of phases) outcomes.push(...(await pool(phase, 6, run)));
    const byKey = new Map(jobs.map((j) => [`${j.method} ${j.route.path}|${j.caller}`, j]));
    check(outcomes, (o) => {
      const job = byKey.get(`${o.key}|${o.caller}`)!;
      return expected(job.route, job.method, job.caller);
    });
    // An anonymous screen visit is sent to sign in.
    for (const o of outcomes.filter((o) => o.caller === "anonymous" && o.answer.status === 302 && !/logout|\/api\/login/.test(o.label))) {
      expect(o.answer.location, o.label).toMatch(/^\/login/);
    }
  }, 120_000);

  it("refuses every cookie write from another site (403) and stores nothing, on the API and on screens", async () => {
    const { dealer, admin, vendor } = world.accounts;
    // The signed URL's signature is its authorisation (no cookie): it has no cross-site question.
    const writes = calls.filter(({ route, method }) => method !== "GET" && route.path !== "/api/objects/signed");
    const before = await documentCounts();
    const outcomes = await pool(writes, 6, async ({ route, method }) => {
      const admittedRoles = route.methods[method] ?? [];
      const who = admittedRoles.includes("dealer") || admittedRoles.includes("anonymous") ? dealer : admittedRoles.includes("vendor") ? vendor : admin;
      const path = urlFor(route, method, who === admin && route.owned && VENDOR_OWNED.has(route.owned) ? world.accounts.vendorB : who);
      const answer = await request(route, method, path, who.cookie, { Origin: "https://evil.example" });
      return { label: `${method} ${path}`, caller: "dealer" as CallerName, answer };
    });
    check(outcomes, () => 403);
    expect(outcomes.every((o) => JSON.parse(o.answer.text).message === "Cross-site request rejected")).toBe(true);
    expect(await documentCounts()).toEqual(before);
  }, 120_000);

});

afterAll(() => {
  // The figures docs/security.md quotes.
  console.log(
    `[security matrix] routes ${routes.length}, method × caller calls ${calls.length * CALLERS.length}, requests ${figures.requests}, 5xx ${figures.fiveHundreds}, leaks ${figures.leaks}`,
  );
});
