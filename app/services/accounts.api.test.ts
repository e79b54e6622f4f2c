import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { jpeg } from "../../tests/media-files";
import { ApiToken } from "../models/api-token.server";
import mongoose, { Types } from "mongoose";
import { Assessment } from "../models/assessment.server";
import { Contact } from "../models/contact.server";
import { FIGURES_COLLECTION } from "../models/dashboard-tally.server";
import { ServicePackage } from "../models/package.server";
import { Upload } from "../models/upload.server";
import { SessionRecord } from "../models/session.server";
import { User } from "../models/user.server";
import { USER_DATA_REMOVAL } from "./users.server";

let app: RunningApp;
const ADMIN = { username: "chief", password: "password123", email: "chief@example.com", firstName: "Ada", lastName: "Admin" };
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  // The first-admin set-up has a file of its own (admin-setup.api.test.ts): here the admin just exists.
  await createTestUser({ role: "admin", username: ADMIN.username, password: ADMIN.password });
});
afterAll(() => app?.stop());

const anon = () => client(app);

describe("login", () => {
  it("signs in, sets an httpOnly SameSite=Lax cookie and answers the user without secrets", async () => {
    const res = await anon().post("/api/admin/login", { username: ADMIN.username, password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ username: ADMIN.username, role: "admin", email: ADMIN.email });
    expect(res.json.user.passwordHash).toBeUndefined();
    expect(res.json.user.usernameKey).toBeUndefined();
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it("gives the same answer for an unknown user and a wrong password", async () => {
    const wrong = await anon().post("/api/admin/login", { username: ADMIN.username, password: "nope-nope" });
    const unknown = await anon().post("/api/admin/login", { username: "ghost", password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ message: "Invalid credentials" });
    expect(unknown.json).toEqual(wrong.json);
  });

  it("validates with the spec's messages and refuses operator objects", async () => {
    const empty = await anon().post("/api/admin/login", {});
    expect(empty.status).toBe(400);
    expect(empty.json.errors).toEqual({ username: "Username is required", password: "Password is required" });
    const injection = await anon().post("/api/admin/login", {
      username: { $ne: null },
      password: { $ne: null },
    });
    expect(injection.status).toBe(400);
    expect(injection.headers.get("set-cookie")).toBeNull();
    const notJson = await anon().post("/api/admin/login", "username=a", { "Content-Type": "text/plain" });
    expect(notJson.status).toBe(415);
  });

  it("throttles after 5 failures for a username and IP with 429 and Retry-After", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    for (let i = 0; i < 5; i++) {
      expect((await anon().post("/api/admin/login", { username, password: "wrong-password" })).status).toBe(401);
    }
    const throttled = await anon().post("/api/admin/login", { username, password });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
    // Another username from the same IP is not affected.
    const other = await createTestUser({ role: "dealer" });
    expect((await anon().post("/api/admin/login", { username: other.username, password: other.password })).status).toBe(200);
  });

  const screenLogin = (fields: Record<string, string>) =>
    fetch(`${app.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });

  it("sends the screen login only to a path of this site after signing in", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    const after = async (redirectTo: string) => {
      const res = await screenLogin({ username, password, redirectTo });
      expect(res.status, JSON.stringify(redirectTo)).toBe(302);
      return res.headers.get("location");
    };
    expect(await after("/contacts?q=a")).toBe("/contacts?q=a");
    // Browsers drop the tab and follow "//evil.example"; a newline used to be a 500.
    for (const evil of ["/\t/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example", "https://evil.example"]) {
      expect(await after(evil)).toBe("/");
    }
  });

  it("tells a throttled screen login when to try again (Retry-After), as the API does", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    for (let i = 0; i < 5; i++) expect((await screenLogin({ username, password: "wrong-password" })).status).toBe(401);
    const throttled = await screenLogin({ username, password });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("rejects a cross-site login post", async () => {
    const res = await anon().post(
      "/api/admin/login",
      { username: ADMIN.username, password: ADMIN.password },
      { Origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
  });
});

describe("behind a load balancer (TRUST_PROXY=1)", () => {
  let proxied: RunningApp;
  beforeAll(async () => {
    proxied = await startApp({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(() => proxied?.stop());

  it("throttles each forwarded client on its own: one client's failures do not lock out another", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    const attempt = (ip: string, pw: string) =>
      client(proxied).post("/api/admin/login", { username, password: pw }, { "X-Forwarded-For": ip });
    for (let i = 0; i < 5; i++) expect((await attempt("203.0.113.1", "wrong-password")).status).toBe(401);
    expect((await attempt("203.0.113.1", password)).status).toBe(429);
    // Before, Express read "1" as an address, trusted nobody, and every client shared the balancer's IP.
    expect((await attempt("203.0.113.2", password)).status).toBe(200);
  });

  it("holds the limit under concurrency: of 30 parallel wrong passwords at most 5 are checked", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    const guesses = await Promise.all(
      Array.from({ length: 30 }, () =>
        client(proxied).post("/api/admin/login", { username, password: "wrong-password" }, { "X-Forwarded-For": "198.51.100.7" }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
    for (const g of guesses.filter((r) => r.status === 429)) expect(Number(g.headers.get("retry-after"))).toBeGreaterThan(0);
    // Refused attempts do not count: the right password is still refused only while the 5 failures stand.
    expect((await client(proxied).post("/api/admin/login", { username, password }, { "X-Forwarded-For": "198.51.100.8" })).status).toBe(200);
  });

  it("limits one client's failures across usernames (password spraying)", async () => {
    // 30 usernames, one wrong guess each: each stays under its own limit of 5.
    for (let i = 0; i < 30; i++) {
      const guess = await client(proxied).post("/api/admin/login", { username: `nobody-${i}`, password: "Summer2026!" }, { "X-Forwarded-For": "192.0.2.99" });
      expect(guess.status).toBe(401);
    }
    const { username, password } = await createTestUser({ role: "dealer" });
    expect((await client(proxied).post("/api/admin/login", { username, password }, { "X-Forwarded-For": "192.0.2.99" })).status).toBe(429);
    expect((await client(proxied).post("/api/admin/login", { username, password }, { "X-Forwarded-For": "192.0.2.100" })).status).toBe(200);
  });
});

describe("per account across addresses (TRUST_PROXY=1)", () => {
  let proxied: RunningApp;
  beforeAll(async () => {
    proxied = await startApp({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(() => proxied?.stop());

  const attempt = (username: string, password: string, ip: string) =>
    client(proxied).post("/api/admin/login", { username, password }, { "X-Forwarded-For": ip });
  const LOCKED = "Too many failed sign-ins to this account. It is locked for a while; please try again later.";

  /** 20 failures at `username` from 5 addresses, 4 each: every address stays under its own limit of 5. */
  async function failFromManyAddresses(username: string) {
    for (let host = 1; host <= 5; host++) {
      for (let i = 0; i < 4; i++) expect((await attempt(username, "wrong-password", `198.18.${host}.1`)).status).toBe(401);
    }
  }

  it("locks an account after 20 failures from any number of addresses, and the lock-out does not confirm the password", async () => {
    const target = await createTestUser({ role: "dealer" });
    const bystander = await createTestUser({ role: "dealer" });
    await failFromManyAddresses(target.username);

    // A sixth address, with the right password and with a wrong one: the same answer.
    const right = await attempt(target.username, target.password, "198.18.6.1");
    const wrong = await attempt(target.username, "another-guess", "198.18.7.1");
    for (const res of [right, wrong]) {
      expect(res.status).toBe(429);
      expect(res.json).toEqual({ message: LOCKED });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    // The screen says the same (as 127.0.0.1 and ::1 would count as two addresses).
    const screen = await fetch(`${proxied.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "198.18.8.1" },
      body: new URLSearchParams({ username: target.username.toUpperCase(), password: target.password }),
    });
    expect(screen.status).toBe(429);
    expect(await screen.text()).toContain("locked for a while");
    // Another account from the same addresses is not affected.
    expect((await attempt(bystander.username, bystander.password, "198.18.1.1")).status).toBe(200);
  });

  it("treats a username that does not exist the same (the lock-out tells nothing about who exists)", async () => {
    const ghost = `ghost-${Date.now()}`;
    await failFromManyAddresses(ghost);
    const res = await attempt(ghost, "whatever-password", "198.18.9.1");
    expect(res.status).toBe(429);
    expect(res.json).toEqual({ message: LOCKED });
  });
});

describe("current user, logout and sessions", () => {
  it("answers 401 when signed out", async () => {
    const res = await anon().get("/api/auth/user");
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: "Unauthorized" });
  });

  it("answers the user with _originalRole, and logout ends the session", async () => {
    const cookie = await signIn(app, ADMIN.username, ADMIN.password);
    const me = await client(app, { cookie }).get("/api/auth/user");
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ username: ADMIN.username, role: "admin", _originalRole: "admin", isCustomAuth: true });
    expect(me.json.id).toMatch(/^[0-9a-f]{24}$/);
    const out = await client(app, { cookie }).get("/api/logout");
    expect(out.status).toBe(200);
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(401);
  });

  it("refuses a logout started by another site (a link or an image), and takes a POST from this one", async () => {
    const cookie = await signIn(app, ADMIN.username, ADMIN.password);
    for (const site of ["cross-site", "same-site"]) {
      expect((await client(app, { cookie }).get("/api/logout", { "Sec-Fetch-Site": site })).status).toBe(403);
    }
    expect((await client(app, { cookie }).post("/api/logout", {}, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(200);
    expect((await client(app, { cookie }).post("/api/logout", {}, { Origin: app.url })).status).toBe(200);
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(401);
  });

  it("treats an expired session as signed out (expiry enforced on every read)", async () => {
    const { username, password, id } = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, username, password);
    await SessionRecord.updateMany({ userId: id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(401);
  });

  it("sends signed-out pages to /login", async () => {
    const res = await fetch(`${app.url}/contacts`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fcontacts");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("keeps the login screens available when signed in (public routes, always available)", async () => {
    const { username, password } = await createTestUser({ role: "vendor" });
    const cookie = await signIn(app, username, password);
    for (const path of ["/login", "/admin/login", "/admin/setup"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(res.status, path).toBe(200);
    }
  });

  it("tells a user whose session ended that they are logged out, on the login page", async () => {
    const { username, password, id } = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, username, password);
    await SessionRecord.updateMany({ userId: id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await fetch(`${app.url}/packages?q=gold`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fpackages%3Fq%3Dgold");
    const flashed = res.headers.get("set-cookie")!.split(";")[0];
    const login = await (await fetch(`${app.url}${res.headers.get("location")}`, { headers: { Cookie: flashed } })).text();
    expect(login).toContain("Unauthorized");
    expect(login).toContain("You are logged out. Logging in again...");
    // Shown once.
    const again = await (await fetch(`${app.url}/login`, { headers: { Cookie: flashed } })).text();
    expect(again).not.toContain("You are logged out");
  });

  it("gives a form typed as the session ended back to its own user only, never to another signing in at that browser (decision 0050)", async () => {
    const expiredPost = async () => {
      const a = await createTestUser({ role: "dealer" });
      const cookie = await signIn(app, a.username, a.password);
      await SessionRecord.updateMany({ userId: a.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
      const res = await fetch(`${app.url}/packages`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "create", name: "Typed Gold", description: "kept", password: "never" }),
      });
      expect(res.status).toBe(302);
      return { a, anonymous: res.headers.get("set-cookie")!.split(";")[0] };
    };
    const signInWith = async (cookie: string, username: string, password: string) => {
      const res = await fetch(`${app.url}/api/admin/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie, Origin: app.url },
        body: JSON.stringify({ username, password }),
      });
      expect(res.status).toBe(200);
    };
    const resumedOf = async (id: string) => {
      const records = await SessionRecord.find({ userId: id }).lean<{ expiresAt: Date; data: { resumed?: { fields: Record<string, string> } } }[]>();
      return records.find((r) => r.expiresAt > new Date())?.data.resumed;
    };

    // Another user signs in at the same browser: nothing of A's typing reaches B.
    const first = await expiredPost();
    const b = await createTestUser({ role: "dealer" });
    await signInWith(first.anonymous, b.username, b.password);
    expect(await resumedOf(b.id)).toBeUndefined();

    // The same user signs in again: the typed fields (never the password) come back.
    const second = await expiredPost();
    await signInWith(second.anonymous, second.a.username, second.a.password);
    expect((await resumedOf(second.a.id))?.fields).toEqual({ name: "Typed Gold", description: "kept" });

    // The same user at another browser (without the ended session's cookie): nothing comes back.
    const third = await expiredPost();
    await signInWith("", third.a.username, third.a.password);
    expect(await resumedOf(third.a.id)).toBeUndefined();

    // A forged cookie (the kept session's id with another signature) is no session: nothing comes back.
    const fourth = await expiredPost();
    const [name, value] = fourth.anonymous.split("=");
    const forged = `${name}=${value.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`;
    await signInWith(forged, fourth.a.username, fourth.a.password);
    expect(await resumedOf(fourth.a.id)).toBeUndefined();

    // Kept longer than 30 minutes: stale, so the sign-in gives nothing back.
    const fifth = await expiredPost();
    await SessionRecord.updateMany({ "data.resume.fields.name": "Typed Gold", userId: null }, { $set: { "data.resume.at": Date.now() - 31 * 60_000 } });
    await signInWith(fifth.anonymous, fifth.a.username, fifth.a.password);
    expect(await resumedOf(fifth.a.id)).toBeUndefined();
  });
});

describe("admin-only calls", () => {
  let adminCookie: string;
  let dealerCookie: string;
  let vendorCookie: string;
  beforeAll(async () => {
    adminCookie = await signIn(app, ADMIN.username, ADMIN.password);
    const dealer = await createTestUser({ role: "dealer" });
    dealerCookie = await signIn(app, dealer.username, dealer.password);
    const vendor = await createTestUser({ role: "vendor" });
    vendorCookie = await signIn(app, vendor.username, vendor.password);
  });

  const adminCalls: [string, string, unknown?][] = [
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users", { username: "x" }],
    ["POST", "/api/admin/create-user", { username: "x" }],
    ["DELETE", "/api/admin/users/000000000000000000000000"],
    ["PUT", "/api/admin/change-credentials", { currentPassword: "x" }],
    ["GET", "/api/admin/role-status"],
    ["POST", "/api/admin/switch-role", { targetRole: "dealer" }],
  ];

  it.each(adminCalls)("%s %s: 401 signed out, 403 for dealers and vendors", async (method, path, body) => {
    const call = (c: ReturnType<typeof client>) =>
      method === "GET" ? c.get(path) : method === "DELETE" ? c.del(path) : method === "PUT" ? c.put(path, body) : c.post(path, body);
    expect((await call(anon())).status).toBe(401);
    const dealer = await call(client(app, { cookie: dealerCookie }));
    expect(dealer.status).toBe(403);
    expect(dealer.json).toEqual({ message: "Forbidden" });
    expect((await call(client(app, { cookie: vendorCookie }))).status).toBe(403);
  });

  it("lists users without password hashes", async () => {
    const res = await client(app, { cookie: adminCookie }).get("/api/admin/users");
    expect(res.status).toBe(200);
    expect(res.json.length).toBeGreaterThanOrEqual(3);
    for (const user of res.json) {
      expect(user.passwordHash).toBeUndefined();
      expect(user.id).toMatch(/^[0-9a-f]{24}$/);
      expect(user._id).toBeUndefined();
    }
  });

  it("creates users in Admin Settings with the 8-character rule and dealer as default role", async () => {
    const admin = client(app, { cookie: adminCookie });
    const short = await admin.post("/api/admin/create-user", {
      username: "shortpw", password: "1234567", email: "s@example.com", firstName: "S", lastName: "P",
    });
    expect(short.status).toBe(400);
    expect(short.json.errors.password).toBe("Password must be at least 8 characters");
    const ok = await admin.post("/api/admin/create-user", {
      username: "dealer-one", password: "12345678", email: "d1@example.com", firstName: "Dee", lastName: "One",
      companyName: "One Motors", phone: "555-0100", role: "", isVerified: true,
    });
    expect(ok.status).toBe(201);
    expect(ok.json.user).toMatchObject({ username: "dealer-one", role: "dealer", companyName: "One Motors" });
    const dup = await admin.post("/api/admin/create-user", {
      username: "DEALER-ONE", password: "12345678", email: "d2@example.com", firstName: "D", lastName: "Two",
    });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toBe("Username already exists");
  });

  it("never creates an admin through create-user", async () => {
    const res = await client(app, { cookie: adminCookie }).post("/api/admin/create-user", {
      username: "sneaky", password: "12345678", email: "s@example.com", firstName: "S", lastName: "N", role: "admin",
    });
    expect(res.status).toBe(400);
    expect(res.json.errors.role).toBe("Please select a role");
  });

  it("creates users in User Management with the 6-character rule and a required role", async () => {
    const admin = client(app, { cookie: adminCookie });
    const missing = await admin.post("/api/admin/users", {
      username: "um", password: "12345", email: "bad", firstName: "", lastName: "",
    });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual({
      username: "Username must be at least 3 characters",
      password: "Password must be at least 6 characters",
      email: "Please enter a valid email",
      firstName: "First name is required",
      lastName: "Last name is required",
      role: "Please select a role",
    });
    const ok = await admin.post("/api/admin/users", {
      username: "vendor-one", password: "123456", email: "v1@example.com", firstName: "Vee", lastName: "One", role: "vendor",
    });
    expect(ok.status).toBe(201);
    expect(ok.json.user.role).toBe("vendor");
  });

  it("deletes a user, ends its sessions, and answers 404 for unknown or malformed ids", async () => {
    const admin = client(app, { cookie: adminCookie });
    const victim = await createTestUser({ role: "dealer" });
    const victimCookie = await signIn(app, victim.username, victim.password);
    expect((await admin.del(`/api/admin/users/${victim.id}`)).status).toBe(200);
    expect((await client(app, { cookie: victimCookie }).get("/api/auth/user")).status).toBe(401);
    expect((await admin.del(`/api/admin/users/${victim.id}`)).status).toBe(404);
    expect((await admin.del("/api/admin/users/not-an-id")).status).toBe(404);
  });

  it("deleting an account removes its contacts, packages, uploads and their objects, and nobody else's", async () => {
    const admin = client(app, { cookie: adminCookie });
    const victim = await createTestUser({ role: "dealer" });
    const bystander = await createTestUser({ role: "dealer" });
    const seed = async (who: { id: string; username: string; password: string }) => {
      const c = client(app, { cookie: await signIn(app, who.username, who.password) });
      expect((await c.post("/api/contacts", { firstName: "A", lastName: "B", email: "a@example.com" })).status).toBe(201);
      expect((await c.post("/api/packages", { name: "Gold", price: 10 })).status).toBe(201);
      const { uploadURL } = (await c.post("/api/objects/upload", { filename: "dent.jpg", type: "image/jpeg" })).json;
      const body = await jpeg();
      expect((await fetch(uploadURL, { method: "PUT", body: new Uint8Array(body), headers: { "Content-Type": "image/jpeg" } })).status).toBe(200);
      expect((await c.post("/api/objects/complete", { uploadURL })).status).toBe(200);
    };
    await seed(victim);
    await seed(bystander);
    const objects = path.join(app.dataDir, "objects", "uploads");
    expect(readdirSync(path.join(objects, victim.id))).toHaveLength(1);

    expect((await admin.del(`/api/admin/users/${victim.id}`)).status).toBe(200);
    for (const model of [Contact, ServicePackage, Upload]) {
      expect(await (model as typeof Contact).countDocuments({ ownerId: victim.id }), model.modelName).toBe(0);
      expect(await (model as typeof Contact).countDocuments({ ownerId: bystander.id }), model.modelName).toBe(1);
    }
    const victimDir = path.join(objects, victim.id);
    const left = existsSync(victimDir) ? readdirSync(victimDir, { recursive: true }).map(String) : [];
    expect(left.filter((f) => f.endsWith(".jpg"))).toEqual([]);
    expect(readdirSync(path.join(objects, bystander.id))).toHaveLength(1);
  });

  it("deleting a big account: 202 at once, the account unusable, then every record removed batch after batch, its counters too", { timeout: 120_000 }, async () => {
    // An instance that does not wait for the records at all (ACCOUNT_PURGE_WAIT_MS=0): every deletion is a big one.
    const quick = await startApp({ env: { ACCOUNT_PURGE_WAIT_MS: "0" } });
    try {
      const admin = client(quick, { cookie: await signIn(quick, ADMIN.username, ADMIN.password) });
      const victim = await createTestUser({ role: "dealer" });
      const bystander = await createTestUser({ role: "dealer" });
      for (const who of [victim, bystander]) {
        const ownerId = new Types.ObjectId(who.id);
        await Contact.insertMany(Array.from({ length: 700 }, (_, k) => ({ ownerId, firstName: "Big", lastName: `N${k}`, email: `b${k}@example.com` })));
        await Assessment.insertMany(Array.from({ length: 700 }, (_, k) => ({ ownerId, title: `Door ${k}`, status: "completed", estimatedCost: 100 })));
      }
      const victimFigures = () => mongoose.connection.collection(FIGURES_COLLECTION).countDocuments({ _id: new Types.ObjectId(victim.id) as never });
      const victimClient = client(quick, { cookie: await signIn(quick, victim.username, victim.password) });
      await victimClient.get("/api/dashboard/stats");
      expect(await victimFigures()).toBe(1);

      const res = await admin.del(`/api/admin/users/${victim.id}`);
      expect(res.status).toBe(202);
      expect(res.json.message).toBe(USER_DATA_REMOVAL);
      expect((await victimClient.get("/api/auth/user")).status).toBe(401);
      await expect.poll(() => Assessment.countDocuments({ ownerId: victim.id }), { timeout: 60_000 }).toBe(0);
      await expect.poll(() => User.countDocuments({ _id: victim.id }), { timeout: 60_000 }).toBe(0);
      expect(await Contact.countDocuments({ ownerId: victim.id })).toBe(0);
      expect(await victimFigures()).toBe(0);
      for (const model of [Contact, Assessment]) expect(await (model as typeof Contact).countDocuments({ ownerId: bystander.id }), model.modelName).toBe(700);
    } finally {
      await quick.stop();
    }
  });

  it("refuses to delete the admin's own account", async () => {
    const me = await client(app, { cookie: adminCookie }).get("/api/auth/user");
    const res = await client(app, { cookie: adminCookie }).del(`/api/admin/users/${me.json.id}`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("You cannot delete your own account");
  });

  it("rejects cross-site writes with the session cookie but not Bearer calls", async () => {
    const admin = client(app, { cookie: adminCookie });
    const body = { username: "csrf-user", password: "12345678", email: "c@example.com", firstName: "C", lastName: "S", role: "dealer" };
    expect((await admin.post("/api/admin/users", body, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await admin.post("/api/admin/users", body, { Origin: "https://evil.example" })).status).toBe(403);
    const me = await admin.get("/api/auth/user");
    const token = await tokenFor(me.json.id);
    const viaToken = await client(app, { token }).post("/api/admin/users", body, { Origin: "https://evil.example" });
    expect(viaToken.status).toBe(201);
  });
});

describe("role preview", () => {
  it("lets an admin preview as dealer, with admin calls refused, and reset", async () => {
    const cookie = await signIn(app, ADMIN.username, ADMIN.password);
    const admin = client(app, { cookie });
    expect((await admin.get("/api/admin/role-status")).json).toEqual({ viewingAsRole: "admin", isRoleSwitched: false });
    const bad = await admin.post("/api/admin/switch-role", { targetRole: "root" });
    expect(bad.status).toBe(400);
    const sw = await admin.post("/api/admin/switch-role", { targetRole: "dealer" });
    expect(sw.status).toBe(200);
    expect(sw.json.message).toBe("Now viewing as dealer");
    const me = await admin.get("/api/auth/user");
    expect(me.json).toMatchObject({ role: "dealer", _originalRole: "admin" });
    expect((await admin.get("/api/admin/role-status")).json).toEqual({ viewingAsRole: "dealer", isRoleSwitched: true });
    expect((await admin.get("/api/admin/users")).status).toBe(403);
    expect((await admin.post("/api/admin/switch-role", { targetRole: "admin" })).status).toBe(200);
    expect((await admin.get("/api/admin/users")).status).toBe(200);
    expect((await admin.get("/api/auth/user")).json.role).toBe("admin");
  });
});

describe("change credentials", () => {
  it("validates, checks the current password, and ends other sessions on a password change", async () => {
    // An admin of its own: the one the other tests sign in as keeps its credentials.
    const renamed = await createTestUser({ role: "admin" });
    const cookie = await signIn(app, renamed.username, renamed.password);
    const otherSession = await signIn(app, renamed.username, renamed.password);
    const admin = client(app, { cookie });

    const invalid = await admin.put("/api/admin/change-credentials", { currentPassword: "", newUsername: "ab", newPassword: "short" });
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors).toEqual({
      currentPassword: "Current password is required",
      newUsername: "Username must be at least 3 characters",
      newPassword: "Password must be at least 8 characters",
    });
    const wrong = await admin.put("/api/admin/change-credentials", { currentPassword: "wrong", newPassword: "newpassword1" });
    expect(wrong.status).toBe(400);

    const ok = await admin.put("/api/admin/change-credentials", {
      currentPassword: renamed.password, newUsername: "chief-renamed", newPassword: "newpassword1",
    });
    expect(ok.status).toBe(200);
    expect(ok.json.message).toBe("Admin credentials updated successfully");
    const fresh = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await client(app, { cookie: fresh }).get("/api/auth/user")).json.username).toBe("chief-renamed");
    expect((await client(app, { cookie: otherSession }).get("/api/auth/user")).status).toBe(401);
    expect((await anon().post("/api/admin/login", { username: "chief-renamed", password: "newpassword1" })).status).toBe(200);
  });
});

describe("API tokens", () => {
  it("authenticates as the owner, records last use, and stops working when revoked", async () => {
    const { username, password } = await createTestUser({ role: "dealer" });
    const dealer = client(app, { cookie: await signIn(app, username, password) });
    const created = await dealer.post("/api/auth/tokens", { name: "DMS integration" });
    expect(created.status).toBe(201);
    expect(created.json.token).toMatch(/^dq_/);
    const viaToken = client(app, { token: created.json.token });
    expect((await viaToken.get("/api/auth/user")).json.username).toBe(username);
    const list = await dealer.get("/api/auth/tokens");
    expect(list.json).toHaveLength(1);
    expect(list.json[0].token).toBeUndefined();
    expect(list.json[0].tokenHash).toBeUndefined();
    expect(list.json[0].lastUsedAt).not.toBeNull();
    expect((await dealer.post("/api/auth/tokens", { name: { $gt: "" } })).status).toBe(400);
    expect((await dealer.del(`/api/auth/tokens/${created.json.id}`)).status).toBe(200);
    expect((await viaToken.get("/api/auth/user")).status).toBe(401);
  });

  it("are created only from a signed-in session, may expire, and end with a password change", async () => {
    const { id, username, password } = await createTestUser({ role: "dealer" });
    const dealer = client(app, { cookie: await signIn(app, username, password) });
    // A token cannot mint another one.
    const viaToken = client(app, { token: await tokenFor(id) });
    const minted = await viaToken.post("/api/auth/tokens", { name: "second" });
    expect(minted.status).toBe(403);
    expect(minted.json).toEqual({ message: "API tokens can only be created from a signed-in session" });

    expect((await dealer.post("/api/auth/tokens", { name: "x", expiresInDays: 7 })).json.errors).toEqual({
      expiresInDays: "Expiry must be 30, 90 or 365 days",
    });
    const expiring = await dealer.post("/api/auth/tokens", { name: "quarterly", expiresInDays: 90 });
    expect(expiring.status).toBe(201);
    const days = (Date.parse(expiring.json.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    expect((await client(app, { token: expiring.json.token }).get("/api/auth/user")).status).toBe(200);
    // Past its expiry (set here, where the app's cache of used tokens cannot see it: a fresh one).
    const expired = await dealer.post("/api/auth/tokens", { name: "expired", expiresInDays: 30 });
    await ApiToken.updateOne({ _id: expired.json.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await client(app, { token: expired.json.token }).get("/api/auth/user")).status).toBe(401);

    // A new password revokes every token of the account.
    const root = await createTestUser({ role: "admin" });
    const rootToken = client(app, { token: await tokenFor(root.id) });
    expect((await rootToken.get("/api/auth/user")).status).toBe(200);
    const rootSession = client(app, { cookie: await signIn(app, root.username, root.password) });
    const changed = await rootSession.put("/api/admin/change-credentials", { currentPassword: root.password, newPassword: "brand-new-pass1" });
    expect(changed.status, changed.text).toBe(200);
    expect((await rootToken.get("/api/auth/user")).status).toBe(401);
  });

  it("cannot revoke another account's token", async () => {
    const a = await createTestUser({ role: "dealer" });
    const b = await createTestUser({ role: "dealer" });
    const aClient = client(app, { cookie: await signIn(app, a.username, a.password) });
    const bClient = client(app, { cookie: await signIn(app, b.username, b.password) });
    const token = await aClient.post("/api/auth/tokens", { name: "mine" });
    expect((await bClient.del(`/api/auth/tokens/${token.json.id}`)).status).toBe(404);
    expect((await client(app, { token: token.json.token }).get("/api/auth/user")).status).toBe(200);
  });

  it("refuses a token whose secret part was changed, or that is not a token at all", async () => {
    const { id } = await createTestUser({ role: "dealer" });
    const token = await tokenFor(id);
    const other = await tokenFor(id);
    expect((await client(app, { token }).get("/api/auth/user")).status).toBe(200);
    const changedSecret = token.slice(0, 5) + (token[5] === "A" ? "B" : "A") + token.slice(6);
    const otherRecord = token.slice(0, -24) + other.slice(-24);
    for (const forged of [changedSecret, otherRecord, token.slice(0, 28), `${token}x`, "dq_", "not-a-token"]) {
      expect((await client(app, { token: forged }).get("/api/auth/user")).status).toBe(401);
    }
  });
});
