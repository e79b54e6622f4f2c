import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Assessment } from "../app/models/assessment.server";
import { Contact } from "../app/models/contact.server";
import { EmailLog } from "../app/models/email-log.server";
import { Job } from "../app/models/job.server";
import { User } from "../app/models/user.server";
import { freePort } from "../app/utils/embedded-db.server";
import { pathToFileURL } from "node:url";
import { client, createTestUser, signIn, tokenFor } from "./accounts";
import { jpeg } from "./media-files";
import { NO_DAMAGE, startOpenAiTestServer, type OpenAiTestServer } from "./openai-server";
import { uploadMedia } from "./uploads";
import { startApp, type RunningApp } from "./app-server";
import { startS3Server, type RunningS3 } from "./s3-server";
import { useTestDb } from "./test-db";

// Several app instances on one database and one S3 server behind a round-robin balancer
// (issue 25, docs/deploy.md): what one instance changes, every other one honours at once.
let s3: RunningS3;
let ai: OpenAiTestServer;
let apps: RunningApp[] = [];
let balancer: http.Server;
let lb: string;
const figures: Record<string, number> = {};

/** A balancer as simple as a real one: each request to the next instance, in turn. */
async function startBalancer(targets: () => string[]) {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const list = targets();
    const target = new URL(list[next++ % list.length]);
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${port}` };
}

const call = async (base: string, method: string, path: string, auth: { cookie?: string; token?: string }, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    redirect: "manual",
    headers: {
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(auth.cookie ? { Cookie: auth.cookie, Origin: base } : {}),
      ...(auth.token ? { Authorization: `Bearer ${auth.token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : undefined };
};

/** Milliseconds until `check` holds, polling every 10 ms (fails after `ms`). */
async function lagUntil(check: () => Promise<boolean>, ms = 6_000) {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > ms) return Infinity;
    await new Promise((r) => setTimeout(r, 10));
  }
  return Math.round(performance.now() - start);
}

// No SESSION_SECRET: the instances must agree on the one kept in the database.
const sharedEnv = (name: string) => ({
  ...s3.appEnv,
  INSTANCE_NAME: name,
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: ai.baseURL,
  OPENAI_MODEL: "vision-test",
  // Shorter than the default (20 s) to keep the file quick; the takeover bound is this plus 5 s.
  EMAIL_LEASE_MS: "10000",
});
// The second instance's clock runs 40 s ahead of the first's and the database's.
const skewed = { CLOCK_SKEW_MS: "40000", NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(path.resolve("tests/clock-skew.mjs")).href}`.trim() };

beforeAll(async () => {
  await useTestDb();
  [s3, ai] = await Promise.all([startS3Server(), startOpenAiTestServer()]);
  apps = await Promise.all([startApp({ env: sharedEnv("app-a") }), startApp({ env: { ...sharedEnv("app-b"), ...skewed } })]);
  ({ server: balancer, url: lb } = await startBalancer(() => apps.map((a) => a.url)));
}, 90_000);

afterAll(async () => {
  console.log("multi-instance figures:", JSON.stringify(figures));
  balancer?.close();
  await Promise.all(apps.map((a) => a.stop()));
  await s3?.stop();
  await ai?.close();
});

describe("several instances on one database", () => {
  it("a revoked token, a changed password and a deleted account stop working on the other instance within 1 s", async () => {
    const [a, b] = apps;
    const dealer = await createTestUser({ role: "admin" });
    const token = await tokenFor(dealer.id);
    const cookie = await signIn(a, dealer.username, dealer.password);
    // Used on B first, so B keeps it in its cache.
    expect((await call(b.url, "GET", "/api/auth/user", { token })).status).toBe(200);
    const tokens = await call(a.url, "GET", "/api/auth/tokens", { cookie });
    const id = (tokens.json as { id: string }[])[0].id;
    expect((await call(a.url, "DELETE", `/api/auth/tokens/${id}`, { cookie })).status).toBeLessThan(300);
    figures.tokenRevocationLagMs = await lagUntil(async () => (await call(b.url, "GET", "/api/auth/user", { token })).status === 401);
    expect(figures.tokenRevocationLagMs).toBeLessThan(1000);

    // A password change ends the sessions (read from the database) and revokes tokens; the user record
    // B keeps must follow too: a second token, used on B, then the password changed on A.
    const second = await tokenFor(dealer.id);
    expect((await call(b.url, "GET", "/api/auth/user", { token: second })).status).toBe(200);
    const changed = await call(a.url, "PUT", "/api/admin/change-credentials", { cookie }, { currentPassword: dealer.password, newPassword: "another-password-42" });
    expect(changed.status).toBe(200);
    figures.passwordChangeLagMs = await lagUntil(async () => (await call(b.url, "GET", "/api/auth/user", { token: second })).status === 401);
    expect(figures.passwordChangeLagMs).toBeLessThan(1000);
  });

  it("no write of a deleted account lands after its deletion was acknowledged, whichever instance takes it", async () => {
    const admin = await createTestUser({ role: "admin" });
    const adminCookie = await signIn(apps[0], admin.username, admin.password);
    const doomed = await createTestUser({ role: "dealer" });
    const token = await tokenFor(doomed.id);
    // Both instances know the token before the race.
    for (const app of apps) expect((await call(app.url, "GET", "/api/auth/user", { token })).status).toBe(200);
    let deletedAt = Infinity;
    let stop = false;
    let acceptedAfter = 0;
    let accepted = 0;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const sentAt = performance.now();
        const res = await call(lb, "POST", "/api/contacts", { token }, { firstName: `W${n}`, lastName: `N${i}`, email: `w${n}.${i}@example.com` });
        if (res.status === 201) {
          accepted++;
          if (sentAt > deletedAt) acceptedAfter++;
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, n) => writer(n));
    await new Promise((r) => setTimeout(r, 800));
    const deleted = await call(apps[0].url, "DELETE", `/api/admin/users/${doomed.id}`, { cookie: adminCookie });
    expect(deleted.status).toBe(200);
    deletedAt = performance.now();
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(writers);
    figures.deletionRaceAccepted = accepted;
    figures.deletionRaceAcceptedAfterAck = acceptedAfter;
    figures.deletionOrphans = await Contact.countDocuments({ ownerId: doomed.id });
    expect(accepted).toBeGreaterThan(0);
    expect(acceptedAfter).toBe(0);
    expect(figures.deletionOrphans).toBe(0);
  });

  it("the Estimates figures follow a write made on the other instance within 1 s", async () => {
    const [a, b] = apps;
    const dealer = await createTestUser({ role: "dealer" });
    const token = await tokenFor(dealer.id);
    const seeded = await Assessment.create({ ownerId: dealer.id, title: "Hail", mediaUrls: [], status: "completed", estimatedCost: 100 });
    const screen = async () => (await call(b.url, "GET", "/estimates?_data=routes%2F_app.estimates", { token })).json?.summary?.total;
    // B counts it once and keeps the figure.
    expect(await screen()).toBe(1);
    expect((await call(a.url, "DELETE", `/api/assessments/${String(seeded._id)}`, { token })).status).toBe(200);
    figures.figuresLagMs = await lagUntil(async () => (await screen()) === 0);
    expect(figures.figuresLagMs).toBeLessThan(1000);
  });

  it("shares what a request leaves for the next one: the session secret, an import waiting for confirmation", async () => {
    const [a, b] = apps;
    const dealer = await createTestUser({ role: "dealer" });
    const cookie = await signIn(a, dealer.username, dealer.password);
    expect((await call(b.url, "GET", "/api/auth/user", { cookie })).status).toBe(200);

    const other = await createTestUser({ role: "dealer" });
    const otherCookie = await signIn(a, other.username, other.password);
    await call(a.url, "POST", "/api/contacts", { cookie: otherCookie }, { firstName: "Moved", lastName: "Across", email: "m@example.com" });
    const archive = Buffer.from(await (await fetch(`${a.url}/api/account/export`, { headers: { Cookie: otherCookie } })).arrayBuffer());
    const body = new FormData();
    body.set("file", new Blob([archive], { type: "application/gzip" }), "export.tar.gz");
    const upload = await fetch(`${a.url}/settings/import`, { method: "POST", redirect: "manual", headers: { Cookie: cookie, Origin: a.url }, body });
    expect(upload.status).toBe(302);
    const token = upload.headers.get("location")!.split("import=")[1];
    const dryRun = await fetch(`${b.url}/settings?tab=system&import=${token}`, { headers: { Cookie: cookie } });
    const html = await dryRun.text();
    expect(html).not.toContain("Import not found");
    expect(html).toContain("Confirm import");
    const confirm = await fetch(`${b.url}/settings?tab=system`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: b.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "import-confirm", token }),
    });
    expect(confirm.status).toBe(302);
    expect(await Contact.countDocuments({ ownerId: dealer.id })).toBe(1);
  });

  it("the local mail drop holds a message once, whichever instance recovers a dead worker's attempt", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    await User.updateOne({ _id: dealer.id }, { $set: { loginNotifications: true } });
    await signIn(apps[0], dealer.username, dealer.password);
    const saved = async () => EmailLog.findOne({ ownerId: dealer.id, status: "saved" }).lean();
    expect(await lagUntil(async () => (await saved()) !== null, 15_000)).toBeLessThan(15_000);
    const log = (await saved())!;
    // Rewound to a worker that died right after writing to the drop, before recording it.
    const last = log.attempts.length - 1;
    await EmailLog.updateOne(
      { _id: log._id },
      {
        $set: { status: "pending", inFlight: true, workerId: "dead-instance", leaseUntil: new Date(Date.now() - 60_000), [`attempts.${last}.outcome`]: "sending", [`attempts.${last}.response`]: "via drop" },
        $unset: { sentAt: 1 },
      },
    );
    expect(await lagUntil(async () => (await EmailLog.findById(log._id).lean())?.inFlight === false, 15_000)).toBeLessThan(15_000);
    const settled = (await EmailLog.findById(log._id).lean())!;
    const onDisks = apps.flatMap((app) => {
      const dir = path.join(app.dataDir, "outbox", dealer.id);
      return existsSync(dir) ? readdirSync(dir) : [];
    });
    const inBucket = (await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `outbox/${dealer.id}/` }))).KeyCount ?? 0;
    figures.dropCopies = onDisks.length + inBucket;
    expect(settled.status).toBe("saved");
    expect(figures.dropCopies).toBe(1);
    expect(inBucket).toBe(1);
  });

  it("refuses to start an instance with STORAGE=local next to running ones, saying why", async () => {
    const started = await startApp({ env: { INSTANCE_NAME: "app-local", STORAGE: "local" } }).then(
      async (app) => (await app.stop(), "started"),
      (error: Error) => error.message,
    );
    expect(started).toMatch(/STORAGE=local keeps uploads.*Several instances need STORAGE=s3/s);
  });

  it("an instance whose clock is 40 s ahead never takes over an analysis running elsewhere", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    const who = client({ url: lb } as RunningApp, { token: await tokenFor(dealer.id) });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const mediaUrls = [await uploadMedia(who, { bytes: await jpeg({ width: 64 + i * 5, height: 48 }) })];
      ids.push((await who.post("/api/assessments", { title: `Skew ${i}`, mediaUrls })).json.id);
    }
    ai.fallback = { json: NO_DAMAGE, delayMs: 3000 };
    const asked = ai.requests.length;
    const answers = await Promise.all(ids.map((id) => who.post(`/api/assessments/${id}/analyze`, undefined, { Prefer: "respond-async" })));
    expect(answers.map((a) => a.status)).toEqual(ids.map(() => 202));
    const done = await Promise.all(
      ids.map(async (id) => {
        await lagUntil(async () => (await who.get(`/api/assessments/${id}`)).json.status === "completed", 30_000);
        return (await who.get(`/api/assessments/${id}`)).json;
      }),
    );
    figures.skewedAnalyses = ids.length;
    figures.skewedProviderCalls = ai.requests.length - asked;
    expect(done.map((a) => a.status)).toEqual(ids.map(() => "completed"));
    expect(figures.skewedProviderCalls).toBe(ids.length);
  }, 60_000);

  it("a multipart upload completed on one instance answers the same when the retry lands on the other", async () => {
    const [a, b] = apps;
    const dealer = await createTestUser({ role: "dealer" });
    const token = await tokenFor(dealer.id);
    const base = "/api/uploads/s3/multipart";
    const created = await call(a.url, "POST", base, { token }, { filename: "walkaround.jpg", type: "image/jpeg" });
    const { key, uploadId } = created.json as { key: string; uploadId: string };
    const q = `?key=${encodeURIComponent(key)}`;
    const signed = await call(b.url, "GET", `${base}/${uploadId}/1${q}`, { token });
    const part = await fetch(signed.json.url, { method: "PUT", body: new Uint8Array(await jpeg({ width: 80, height: 60 })) });
    const parts = [{ PartNumber: 1, ETag: part.headers.get("etag")! }];
    const first = await call(a.url, "POST", `${base}/${uploadId}/complete${q}`, { token }, { parts });
    const retried = await call(b.url, "POST", `${base}/${uploadId}/complete${q}`, { token }, { parts });
    expect(first.status).toBe(200);
    expect(retried.status).toBe(200);
    // The same upload; `location` is absolute on each instance's own origin.
    const same = (json: { location: string }) => ({ ...json, location: new URL(json.location).pathname });
    expect(same(retried.json)).toEqual(same(first.json));
  });

  // Last: it kills an instance.
  it("a killed instance's analysis is taken over within 10 s and completed once, its email within the lease", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    await User.updateOne({ _id: dealer.id }, { $set: { loginNotifications: true } });
    const token = await tokenFor(dealer.id);
    const who = client({ url: lb } as RunningApp, { token });
    const mediaUrls = [await uploadMedia(who, { bytes: await jpeg({ width: 90, height: 60 }) })];
    const id = (await who.post("/api/assessments", { title: "Taken over", mediaUrls })).json.id as string;
    await signIn(apps[0], dealer.username, dealer.password);
    expect(await lagUntil(async () => (await EmailLog.exists({ ownerId: dealer.id, status: "saved" })) !== null, 15_000)).toBeLessThan(15_000);

    ai.fallback = { json: NO_DAMAGE, delayMs: 60_000 };
    const asked = ai.requests.length;
    // The caller is answered at once and polls: it does not depend on the instance that runs it.
    const queued = await who.post(`/api/assessments/${id}/analyze`, undefined, { Prefer: "respond-async" });
    expect(queued.status).toBe(202);
    expect(queued.headers.get("location")).toBe(`/api/assessments/${id}`);
    expect(await lagUntil(async () => ai.requests.length > asked, 15_000)).toBeLessThan(15_000);
    const job = (await Job.findOne({ key: id }).lean())!;
    const victim = apps.find((app) => String(app.process.pid) === job.workerId!.split(":")[1])!;
    const survivor = apps.find((app) => app !== victim)!;
    // The victim's outbox holds an attempt too: claimed, nothing sent yet, its lease just renewed.
    const log = (await EmailLog.findOne({ ownerId: dealer.id, status: "saved" }).lean())!;
    await EmailLog.updateOne(
      { _id: log._id },
      {
        $set: { status: "pending", inFlight: true, workerId: job.workerId, leaseUntil: new Date(Date.now() + 10_000) },
        $push: { attempts: { at: new Date(), outcome: "sending", workerId: job.workerId } },
      },
    );
    ai.fallback = { json: NO_DAMAGE };
    victim.process.kill("SIGKILL");
    const [jobTakeover, mailTakeover] = await Promise.all([
      lagUntil(async () => ai.requests.length > asked + 1, 20_000),
      lagUntil(async () => (await EmailLog.findById(log._id).lean())?.inFlight === false, 25_000),
    ]);
    figures.jobTakeoverMs = jobTakeover;
    figures.emailTakeoverMs = mailTakeover;
    const survivorClient = client(survivor, { token });
    await lagUntil(async () => (await survivorClient.get(`/api/assessments/${id}`)).json.status === "completed", 15_000);
    const assessment = (await survivorClient.get(`/api/assessments/${id}`)).json;
    expect(assessment.status).toBe("completed");
    figures.analysesCompletedTwice = assessment.audit.filter((e: { action: string }) => e.action === "analysis completed").length - 1;
    expect(figures.analysesCompletedTwice).toBe(0);
    expect(jobTakeover).toBeLessThan(10_000);
    // The lease (10 s here) plus the outbox's recovery round (5 s), plus a busy machine's slack.
    expect(mailTakeover).toBeLessThan(18_000);
  }, 60_000);
});
