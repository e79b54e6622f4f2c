import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../accounts";
import { startApp, type RunningApp } from "../app-server";
import { routes, VENDOR_OWNED, type Method, type RouteEntry } from "../route-registry";
import { useTestDb } from "../test-db";
import { call, cookieClient, documentCounts, seedWorld, validBody, type Account, type Answer, type World } from "./world";

// Hostile input on every write the registry lists (API and screen actions): operator objects, lists
// where text belongs, 1 MB strings, bad and foreign ids, __proto__ / constructor keys, unicode and
// script text, wrong content types and oversize bodies. No answer may be a 5xx, and a refused write
// (4xx) must leave every collection as it was.

let app: RunningApp;
let world: World;
const figures = { requests: 0, fiveHundreds: 0, storedOnRefusal: 0 };

beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  world = await seedWorld(app);
});
afterAll(() => app?.stop());

const XSS = "<script>alert(1)</script>";
const UNICODE = "Zoë Ünïcødé 🚗 ‮مرحبا‬ 𝔘 \u0000";
const MB_STRING = "x".repeat(1_000_000);

/** A body for writes the matrix has none for: the fields the app's schemas ask for, by name. */
const GENERIC: Record<string, unknown> = {
  title: "Probe",
  note: "Probe",
  username: "probe-user",
  password: "probe-password",
  email: "probe@example.com",
  firstName: "Probe",
  lastName: "User",
  // Switching to admin is no preview: the caller's session stays as it was.
  targetRole: "admin",
  currentPassword: "wrong-password",
  newPassword: "another-password",
  filename: "probe.jpg",
  type: "image/jpeg",
  key: "probe",
  uploadURL: "/api/objects/signed?x=1",
  parts: [{ PartNumber: 1, ETag: "e" }],
  imageUrl: "/media/000000000000000000000000",
  description: "Probe",
  damageType: "dent",
  severity: "minor",
  estimatedCost: 1,
  mediaUrls: ["/media/000000000000000000000000"],
};

/** Routes whose writes read no body (the id in the path is all): a body of any type is ignored. */
const READS_NO_BODY = new Set([
  "POST /api/logout",
  "POST /api/assessments/:id/analyze",
  "POST /api/assessments/:id/approve",
  "POST /api/ai-pricing-learning/validate/:id",
  "POST /api/email-templates/:id/copy",
  "POST /api/webhooks/:id/rotate-secret",
  "POST /api/webhook-deliveries/:id/redeliver",
  "POST /api/account/import/resume",
  "POST /api/account/import/discard",
]);
/** Routes that take files: their size limits are per upload purpose, not the form's 64 KiB. */
const FILE_ROUTES = new Set(["/api/objects/signed", "/upload", "/ai-training", "/settings/import", "/api/account/import", "/settings/logo", "/api/auth/logo"]);
/** Screen forms with a larger limit (server.mjs): Edit Estimate posts every line of a 100-damage estimate (4 MiB). */
const LARGE_FORMS = new Set(["/estimates"]);

/** The form each screen action takes (its main create post), as the page's form sends it. */
function screenForm(route: RouteEntry, who: Account): Record<string, string> | undefined {
  const forms: Record<string, Record<string, string>> = {
    "/login": { username: "probe-user", password: "probe-password" },
    "/admin/login": { username: "probe-user", password: "probe-password" },
    "/admin/setup": { username: "probe-admin", password: "probe-password", email: "probe@example.com", firstName: "P", lastName: "Q" },
    "/logout": {},
    "/": { intent: "approve", id: who.docs.assessment ?? "" },
    "/contacts": { intent: "create", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    "/estimates": { intent: "update", id: who.docs.assessment ?? "", severity: "minor", reason: "probe" },
    "/packages": { intent: "create", name: "Gold", price: "100", features: "Wash" },
    "/upload": { intent: "create", title: "Front bumper" },
    "/settings": { intent: "create-token", name: "probe" },
    // The archive upload: a form without the file is sent back to the System tab.
    "/settings/import": {},
    "/settings/logo": {},
    // The confirm step's "Update Preview": it sends nothing, so the probes leave no email behind.
    "/send": { intent: "send", step: "review", assessmentId: who.docs.assessment ?? "", contactId: who.docs.contact ?? "", returnTo: "/estimates" },
    "/email": { intent: "create-template", name: "Probe", subject: "Hello {{contact.firstName}}", htmlContent: "<p>Hi</p>" },
    "/vendor-ai-training": { intent: "create-rule", damageType: "dent", severity: "major", basePrice: "100", laborRate: "80" },
    "/ai-training": { intent: "create", imageUrl: "/media/000000000000000000000000", damageType: "dent", severity: "minor", description: "d", estimatedCost: "1" },
    "/admin-settings": { intent: "create-user", username: "probe-made", password: "probe-password", email: "m@example.com", firstName: "P", lastName: "Q" },
    "/user-management": { intent: "create-user", username: "probe-made2", password: "probe-password", email: "m2@example.com", firstName: "P", lastName: "Q", role: "dealer" },
  };
  return forms[route.path];
}

/** Who probes a write: anonymous where anyone may, else a dealer, else a vendor, else the admin. */
function prober(route: RouteEntry, method: Method): Account | undefined {
  const admitted = route.methods[method] ?? [];
  if (admitted.includes("anonymous")) return undefined;
  const { dealer, vendor, admin } = world.accounts;
  return admitted.includes("dealer") ? dealer : admitted.includes("vendor") ? vendor : admin;
}

function pathFor(route: RouteEntry, who: Account | undefined, id?: string) {
  const own = route.owned === "user" ? world.spareUserId : route.owned && who ? (VENDOR_OWNED.has(route.owned) ? world.accounts.vendor : who).docs[route.owned] : undefined;
  let path = route.path
    .replace(":id", id ?? own ?? "")
    .replace(":vendorId", world.accounts.vendor.id)
    .replace(":uploadId", "0")
    .replace(":partNumber", "1");
  if (route.file.endsWith("._index.tsx")) path += "?index";
  if (route.path.startsWith("/api/uploads/s3/multipart/")) path += "?key=probe";
  return path;
}

type Transform = (value: unknown, key: string) => unknown;
const mapValues = (body: Record<string, unknown>, f: Transform) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, f(v, k)]));
const strings = (f: (s: string) => unknown): Transform => (v) => (typeof v === "string" ? f(v) : v);

/** JSON probes: a name and the raw body text. */
function jsonProbes(base: Record<string, unknown>, who: Account | undefined): [string, string][] {
  const other = world.accounts.dealerB;
  const firstString = Object.keys(base).find((k) => typeof base[k] === "string");
  return [
    ["operator objects", JSON.stringify(mapValues(base, () => ({ $ne: null })))],
    ["operators in text", JSON.stringify(mapValues(base, strings(() => "{\"$gt\": \"\"}")))],
    ["lists for text", JSON.stringify(mapValues(base, strings((s) => [s, s])))],
    ["a 1 MB string", JSON.stringify(firstString ? { ...base, [firstString]: MB_STRING } : { ...base, name: MB_STRING })],
    [
      "bad ids",
      JSON.stringify(mapValues(base, (v, k) => (/id$/i.test(k) ? "not-an-id" : k === "mediaUrls" ? ["/media/../../etc/passwd"] : v))),
    ],
    [
      "another account's ids",
      JSON.stringify({
        ...base,
        ...(who ? { contactId: other.docs.contact, vendorId: world.accounts.vendorB.id, mediaUrls: [`/media/${other.docs.upload}`], id: other.docs.upload } : {}),
      }),
    ],
    [
      "__proto__ and constructor keys",
      `{"__proto__": {"role": "admin", "ownerId": "${other.id}"}, "constructor": {"prototype": {"polluted": true}}, ${JSON.stringify(base).slice(1)}`,
    ],
    ["unicode", JSON.stringify(mapValues(base, strings(() => UNICODE)))],
    ["script text", JSON.stringify(mapValues(base, strings(() => XSS)))],
    ["null and numbers", JSON.stringify(mapValues(base, (v) => (typeof v === "string" ? 1e308 : null)))],
    ["a list for the body", JSON.stringify([base])],
    ["not JSON", "{\"a\": "],
  ];
}

/** Form probes for a screen action (forms are bounded to 64 KiB, so the long string is 60 KB). */
function formProbes(base: Record<string, string>): [string, string][] {
  const form = (entries: [string, string][]) => new URLSearchParams(entries).toString();
  const entries = Object.entries(base);
  return [
    ["operator keys", form(entries.flatMap(([k, v]) => [[`${k}[$ne]`, v], [k === "intent" ? k : `${k}`, k === "intent" ? v : ""]] as [string, string][]))],
    ["repeated fields", form(entries.flatMap(([k, v]) => [[k, v], [k, `${v}2`]] as [string, string][]))],
    ["60 KB strings", form(entries.map(([k, v]) => [k, k === "intent" ? v : "x".repeat(60_000 / Math.max(entries.length, 1))]))],
    ["bad ids", form([...entries, ["id", "not-an-id"], ["vendorId", "{\"$ne\":null}"]])],
    ["another account's ids", form([...entries.filter(([k]) => k !== "id"), ["id", world.accounts.dealerB.docs.assessment ?? ""], ["contactId", world.accounts.dealerB.docs.contact ?? ""]])],
    ["__proto__ and constructor keys", form([["__proto__", "x"], ["constructor", "y"], ["__proto__[role]", "admin"], ...entries])],
    ["unicode", form(entries.map(([k, v]) => [k, k === "intent" ? v : UNICODE]))],
    ["script text", form(entries.map(([k, v]) => [k, k === "intent" ? v : XSS]))],
  ];
}

const writes = routes.flatMap((route) => (Object.keys(route.methods) as Method[]).filter((m) => m !== "GET").map((method) => ({ route, method })));

/** Sends probes one after another, checking after each refusal that nothing was stored. */
async function probe(cases: { label: string; send: () => Promise<Answer>; want?: number }[]) {
  const problems: string[] = [];
  let counts = await documentCounts();
  for (const c of cases) {
    figures.requests += 1;
    // Name the probe when the connection itself fails (a reset, a stalled socket).
    const answer = await c.send().catch((error: Error) => {
      throw new Error(`${c.label}: ${String(error.cause ?? error)}`);
    });
    const after = await documentCounts();
    if (answer.status >= 500) {
      figures.fiveHundreds += 1;
      problems.push(`${c.label}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    if (c.want !== undefined && answer.status !== c.want) problems.push(`${c.label}: ${answer.status}, expected ${c.want} ${answer.text.slice(0, 120)}`);
    if (answer.status >= 400 && JSON.stringify(after) !== JSON.stringify(counts)) {
      figures.storedOnRefusal += 1;
      problems.push(`${c.label}: refused with ${answer.status} but stored ${JSON.stringify(counts)} -> ${JSON.stringify(after)}`);
    }
    counts = after;
  }
  return problems;
}

/** A session of its own for a write that ends the one it is sent with (logout). */
const cookieFor = async (route: RouteEntry, who: Account | undefined) =>
  who && (route.endsSession ? await signIn(app, who.username, who.password) : who.cookie);

describe("probes over every write", () => {
  it("JSON API writes: no 5xx, 415 for another content type, 413 over 1 MiB, nothing stored on a refusal", async () => {
    const cases = writes
      .filter(({ route }) => route.kind === "api")
      .flatMap(({ route, method }) => {
        const who = prober(route, method);
        const base = (validBody(route, method, world) as Record<string, unknown> | undefined) ?? GENERIC;
        const path = pathFor(route, who);
        const key = `${method} ${route.path}`;
        const send = (body: string, type = "application/json", id?: string) => async () =>
          call(app, method, id ? pathFor(route, who, id) : path, {
            cookie: await cookieFor(route, who),
            body,
            headers: { "Content-Type": type, Origin: app.url },
          });
        const readsBody = method !== "DELETE" && !READS_NO_BODY.has(key) && !FILE_ROUTES.has(route.path);
        return [
          ...(readsBody ? jsonProbes(base, who).map(([name, body]) => ({ label: `${key} ${name}`, send: send(body) })) : []),
          ...(route.path.includes(":id")
            ? [
                { label: `${key} a bad id in the path`, send: send(JSON.stringify(base), "application/json", "not-an-id") },
                { label: `${key} an operator in the path`, send: send(JSON.stringify(base), "application/json", "%7B%22%24ne%22%3Anull%7D") },
              ]
            : []),
          ...(readsBody ? [{ label: `${key} text/plain`, send: send(JSON.stringify(base), "text/plain"), want: 415 }] : []),
          ...(!FILE_ROUTES.has(route.path)
            ? [{ label: `${key} 1.1 MiB`, send: send(JSON.stringify({ ...base, pad: "x".repeat(1_150_000) })), want: 413 }]
            : []),
        ];
      });
    expect(await probe(cases)).toEqual([]);
    // No __proto__ or constructor key reached an account: the callers are what they were.
    for (const role of ["dealer", "vendor", "admin"] as const) {
      const me = await cookieClient(app, world.accounts[role].cookie).get("/api/auth/user");
      expect(me.json).toMatchObject({ role, _originalRole: role });
    }
    // Hundreds of requests, growing with the route registry: more than the default per-test limit.
  }, 120_000);

  it("screen actions: no 5xx, 415 for a JSON body, 413 over 64 KiB (4 MiB for Edit Estimate), nothing stored on a refusal", async () => {
    const cases = writes
      .filter(({ route }) => route.kind === "screen")
      .flatMap(({ route, method }) => {
        const who = prober(route, method);
        const base = screenForm(route, who ?? world.accounts.dealer);
        if (!base) throw new Error(`no form for ${route.path}: add one to screenForm`);
        const path = pathFor(route, who);
        const send = (body: string, type = "application/x-www-form-urlencoded") => async () =>
          call(app, method, path, { cookie: await cookieFor(route, who), body, headers: { "Content-Type": type, Origin: app.url } });
        return [
          ...formProbes(base).map(([name, body]) => ({ label: `${method} ${path} ${name}`, send: send(body) })),
          { label: `${method} ${path} JSON`, send: send(JSON.stringify(base), "application/json"), want: 415 },
          ...(FILE_ROUTES.has(route.path)
            ? []
            : LARGE_FORMS.has(route.path)
              ? [{ label: `${method} ${path} 4.3 MB`, send: send(new URLSearchParams({ ...base, pad: "x".repeat(4_300_000) }).toString()), want: 413 }]
              : [{ label: `${method} ${path} 70 KB`, send: send(new URLSearchParams({ ...base, pad: "x".repeat(70_000) }).toString()), want: 413 }]),
        ];
      });
    // The dashboard's other form (Switch Role) validates on its own.
    const admin = world.accounts.admin;
    cases.push({
      label: "POST /?index switch-role __proto__ keys",
      send: () =>
        call(app, "POST", "/?index", {
          cookie: admin.cookie,
          body: "intent=switch-role&targetRole=admin&__proto__[role]=admin",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
        }),
      want: 302,
    });
    expect(await probe(cases)).toEqual([]);
  }, 120_000);
});

describe("stored text", () => {
  it("is stored verbatim (script text, unicode) and escaped when a screen renders it", async () => {
    const dealer = cookieClient(app, world.accounts.dealer.cookie);
    const created = await dealer.post("/api/contacts", { firstName: XSS, lastName: "Zoë 🚗 مرحبا", email: "xss@example.com", notes: `"'><img src=x onerror=alert(1)>` });
    expect(created.status).toBe(201);
    const read = await dealer.get(`/api/contacts/${created.json.id}`);
    expect(read.json).toMatchObject({ firstName: XSS, lastName: "Zoë 🚗 مرحبا", notes: `"'><img src=x onerror=alert(1)>` });

    const page = await call(app, "GET", `/contacts?q=xss%40example.com`, { cookie: world.accounts.dealer.cookie, headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.text).not.toContain(XSS);
    expect(page.text).toContain("Zoë 🚗 مرحبا");
    // The page's data for hydration carries it too, escaped for a script context.
    expect(page.text).not.toMatch(/<img src=x onerror/);

    // The same through the screen's form.
    const form = await call(app, "POST", "/contacts", {
      cookie: world.accounts.dealer.cookie,
      body: new URLSearchParams({ intent: "create", firstName: XSS, lastName: "Form", email: "xss-form@example.com" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    });
    expect(form.status).toBe(302);
    const listed = await dealer.get("/api/contacts?q=xss-form%40example.com");
    expect(listed.json.map((c: { firstName: string }) => c.firstName)).toEqual([XSS]);
  });
});

afterAll(() => {
  console.log(`[security probes] writes ${writes.length}, requests ${figures.requests}, 5xx ${figures.fiveHundreds}, stored on refusal ${figures.storedOnRefusal}`);
});
