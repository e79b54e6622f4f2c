import { createApiToken } from "../app/models/api-token.server";
import { User, usernameKey, type Role } from "../app/models/user.server";
import { hash } from "@node-rs/argon2";
import type { RunningApp } from "./app-server";

/**
 * The OpenAPI check (tests/openapi-check.ts), loaded on the client's first /api answer: e2e/ imports
 * this file for its fixtures, and Playwright's loader does not load the app's description modules.
 */
let openApiCheck: Promise<typeof import("./openapi-check")> | undefined;

let counter = 0;

/** Creates an account directly in the database (fixtures never go through the UI). */
export async function createTestUser(options: { role: Role; username?: string; password?: string } = { role: "dealer" }) {
  counter += 1;
  const username = options.username ?? `${options.role}${counter}${Math.random().toString(36).slice(2, 6)}`;
  const password = options.password ?? "password123";
  const user = await User.create({
    username,
    usernameKey: usernameKey(username),
    // Fast parameters: fixtures need a valid argon2id hash, not a slow one.
    passwordHash: await hash(password, { memoryCost: 1024, timeCost: 1 }),
    email: `${username}@example.com`,
    firstName: options.role[0].toUpperCase() + options.role.slice(1),
    lastName: `Tester${counter}`,
    role: options.role,
    companyName: options.role === "vendor" ? `${username} Body Works` : undefined,
  });
  return { user, id: String(user._id), username, password };
}

/** Signs in over HTTP and returns the session cookie header. */
export async function signIn(app: RunningApp, username: string, password: string) {
  const res = await fetch(`${app.url}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get("set-cookie");
  if (!cookie) throw new Error("no session cookie");
  return cookie.split(";")[0];
}

export async function tokenFor(userId: string) {
  return (await createApiToken({ ownerId: userId, name: "test" })).token;
}

/** A small JSON client for one caller (cookie or Bearer token); its /api answers must match the OpenAPI description. */
export function client(app: RunningApp, auth?: { cookie?: string; token?: string }) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(auth?.cookie ? { Cookie: auth.cookie } : {}),
        ...(auth?.token ? { Authorization: `Bearer ${auth.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    // Every API answer is held to the OpenAPI description (tests/openapi-check.ts).
    if (path.startsWith("/api/")) {
      const { checkAgainstDescription } = await (openApiCheck ??= import("./openapi-check"));
      checkAgainstDescription({ method, path, status: res.status, contentType: res.headers.get("content-type"), body: text });
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, headers: res.headers, json: json as any, text };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call("PUT", path, body ?? {}, headers),
    del: (path: string, headers?: Record<string, string>) => call("DELETE", path, undefined, headers),
  };
}

/**
 * The three callers a tenancy test needs: account A (cookie), another account B (Bearer token)
 * and an admin (cookie).
 */
export async function tenancyClients(app: RunningApp, { otherRole = "dealer" }: { otherRole?: Role } = {}) {
  const a = await createTestUser({ role: "dealer" });
  const b = await createTestUser({ role: otherRole });
  const root = await createTestUser({ role: "admin" });
  return {
    aId: a.id,
    bId: b.id,
    dealerA: client(app, { cookie: await signIn(app, a.username, a.password) }),
    dealerB: client(app, { token: await tokenFor(b.id) }),
    admin: client(app, { cookie: await signIn(app, root.username, root.password) }),
  };
}
