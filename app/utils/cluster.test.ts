import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, stopProcess } from "./embedded-db.server";

// Production runs several workers on the port (server.mjs): one embedded database for all of them,
// sessions that work whichever worker answers, a dead worker replaced, an ordered stop.
const root = path.resolve(__dirname, "../..");
let dataDir: string;
let url: string;
let primary: ReturnType<typeof spawn>;
let output = "";

const children = (pid: number) =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => ({ pid: Number(line.split(/\s+/)[0]), args: line.slice(line.indexOf(" ") + 1) }));
const workers = () => children(primary.pid!).filter((c) => !c.args.includes("java"));

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const healthy = async () => {
  try {
    return (await fetch(`${url}/healthz`)).status === 200;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "damage-cluster-"));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, WEB_CONCURRENCY: "2" };
  delete env.MONGODB_URI;
  primary = spawn(process.execPath, [path.join(root, "server.mjs")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  primary.stdout?.on("data", (d: Buffer) => (output += d));
  primary.stderr?.on("data", (d: Buffer) => (output += d));
  // A cold start (the engine's JVM, two workers' bundles) took over 20 s on the 2-core machine under load.
  await until(healthy, "healthy", 90_000);
  await until(() => workers().length === 2, "two workers");
}, 120_000);
afterAll(async () => {
  await stopProcess(primary);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the production cluster", () => {
  it("runs two workers and one embedded database; a session works whichever worker answers", async () => {
    expect(children(primary.pid!).filter((c) => c.args.includes("java"))).toHaveLength(1);
    const body = { username: "clusteradmin", password: "cluster-admin-1", email: "a@example.com", firstName: "C", lastName: "A" };
    const post = (p: string, data: unknown) => fetch(`${url}${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
    expect((await post("/api/admin/create-account", body)).status).toBeLessThan(300);
    const login = await post("/api/admin/login", { username: body.username, password: body.password });
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${url}/api/auth/user`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
    }
  });

  it("a revoked API token stops working at once in every worker (each keeps used tokens a few seconds)", async () => {
    const json = { "Content-Type": "application/json", Origin: url };
    const login = await fetch(`${url}/api/admin/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username: "clusteradmin", password: "cluster-admin-1" }),
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const made = await fetch(`${url}/api/auth/tokens`, { method: "POST", headers: { ...json, Cookie: cookie }, body: JSON.stringify({ name: "cluster" }) });
    const { id, token } = (await made.json()) as { id: string; token: string };
    // Each request on a new connection: the primary hands connections to the workers in turn.
    const statuses = () =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          new Promise<number>((resolve, reject) => {
            const req = http.get(`${url}/api/auth/user`, { agent: false, headers: { Authorization: `Bearer ${token}` } }, (res) => {
              res.resume();
              resolve(res.statusCode!);
            });
            req.on("error", reject);
          }),
        ),
      );
    expect(await statuses()).toEqual(Array(8).fill(200));
    const revoked = await fetch(`${url}/api/auth/tokens/${id}`, { method: "DELETE", headers: { Cookie: cookie, Origin: url } });
    expect(revoked.status).toBeLessThan(300);
    expect(await statuses()).toEqual(Array(8).fill(401));
  });

  it("replaces a worker that dies, and keeps answering meanwhile", async () => {
    const [victim] = workers();
    process.kill(victim.pid, "SIGKILL");
    // The other worker answers at once (a kept-alive connection to the dead one fails, as it would for any client).
    await until(healthy, "the other worker answering", 2000);
    await until(() => workers().length === 2 && !workers().some((w) => w.pid === victim.pid), "a replacement worker");
    await until(healthy, "healthy again");
  });

  it("stops the workers, then the database, on SIGTERM", async () => {
    const java = children(primary.pid!).filter((c) => c.args.includes("java")).map((c) => c.pid);
    const exited = new Promise<number | null>((resolve) => primary.once("exit", resolve));
    primary.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of java) expect(() => process.kill(pid, 0)).toThrow();
  }, 30_000);
});
