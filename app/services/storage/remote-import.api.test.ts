import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { client, createTestUser, signIn } from "../../../tests/accounts";
import { startApp, type RunningApp } from "../../../tests/app-server";
import { jpeg, png } from "../../../tests/media-files";
import { startS3Server, type RunningS3 } from "../../../tests/s3-server";
import { useTestDb } from "../../../tests/test-db";

// Import from a link (issue 39 item 1, decision 0068), against the built app: a local HTTP server
// serves the files. It listens on 127.0.0.1, which the outbound rule refuses like every loopback
// address; the app here runs with OUTBOUND_ALLOW=127.0.0.1 (the operator's exception, which the
// webhook tests use too), so 127.0.0.2 and the other private, loopback and link-local targets stay refused.

type Client = ReturnType<typeof client>;

interface Site {
  url(path: string): string;
  port: number;
  close(): Promise<void>;
}

/** The server links point at. */
async function startSite(files: { car: Buffer; png: Buffer }): Promise<Site> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const port = (server.address() as AddressInfo).port;
    switch (path) {
      case "/car.jpg":
        res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": files.car.length });
        return res.end(files.car);
      case "/photo":
        // No extension in the link: the name takes the type's.
        res.writeHead(200, { "Content-Type": "image/png" });
        return res.end(files.png);
      case "/moved":
        res.writeHead(302, { Location: "/car.jpg" });
        return res.end();
      case "/to-private":
        // 127.0.0.2 is loopback too, and not in OUTBOUND_ALLOW.
        res.writeHead(302, { Location: `http://127.0.0.2:${port}/car.jpg` });
        return res.end();
      case "/to-metadata":
        res.writeHead(301, { Location: "http://169.254.169.254/latest/meta-data/" });
        return res.end();
      case "/page.html":
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        return res.end("<!doctype html><title>Not a photo</title>");
      case "/fake.jpg":
        // Says JPEG, is not: the first bytes decide, as for a direct upload.
        res.writeHead(200, { "Content-Type": "image/jpeg" });
        return res.end("this is not a picture at all");
      case "/declared-huge.jpg":
        // Says it is larger than any limit: refused before the body is read.
        res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": String(200 * 1024 * 1024) });
        res.write(files.car.subarray(0, 16));
        return;
      case "/slow.jpg": {
        // The photo in eight pieces over about 2 s: the widget sees progress on its socket.
        res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": files.car.length });
        const piece = Math.ceil(files.car.length / 8);
        let at = 0;
        const next = () => {
          if (at >= files.car.length) return void res.end();
          res.write(files.car.subarray(at, at + piece));
          at += piece;
          setTimeout(next, 250);
        };
        res.on("error", () => {});
        return next();
      }
      case "/endless.jpg": {
        // No length: a JPEG start, then more than the dashboard's 50 MB, in 1 MiB chunks.
        res.writeHead(200, { "Content-Type": "image/jpeg" });
        res.write(files.car.subarray(0, 16));
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 52) {
            sent++;
            if (!res.write(chunk)) return res.once("drain", more);
          }
          res.end();
        };
        res.on("error", () => {});
        return more();
      }
      default:
        res.writeHead(404, { "Content-Type": "text/plain" });
        return res.end("no such file");
    }
  });
  server.on("clientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let site: Site;
let car: Buffer;
beforeAll(async () => {
  car = await jpeg({ width: 320, height: 240 });
  site = await startSite({ car, png: await png(64, 48) });
});
afterAll(async () => {
  await site?.close();
});

describe.each(["local", "s3"] as const)("importing a file from a link with the %s backend", (backend) => {
  let app: RunningApp;
  let s3: RunningS3 | undefined;
  let dealer: Client;
  let cookie: string;

  beforeAll(async () => {
    await useTestDb();
    if (backend === "s3") s3 = await startS3Server();
    app = await startApp({ env: { OUTBOUND_ALLOW: "127.0.0.1", ...(s3?.appEnv ?? {}) } });
    const user = await createTestUser({ role: "dealer" });
    cookie = await signIn(app, user.username, user.password);
    dealer = client(app, { cookie });
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  const importLink = (url: unknown, extra: Record<string, unknown> = {}, who: Client = dealer) => who.post("/api/uploads/import", { url, ...extra });

  it("stores the linked file as the caller's upload, the same bytes, on the wizard's list", async () => {
    const res = await importLink(site.url("/car.jpg"));
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ name: "car.jpg", type: "image/jpeg", size: car.length, state: "complete" });
    const listed = await dealer.get("/api/objects");
    expect(listed.json.map((u: { id: string }) => u.id)).toContain(res.json.id);
    const media = await fetch(`${app.url}${res.json.url}`, { headers: { Cookie: cookie } });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(car)).toBe(true);
  });

  it("an import repeated with its Idempotency-Key answers the first upload again and stores no second copy", async () => {
    const key = `import-${Math.random().toString(36).slice(2)}`;
    const before = (await dealer.get("/api/objects")).json.length as number;
    const first = await dealer.post("/api/uploads/import", { url: site.url("/car.jpg") }, { "Idempotency-Key": key });
    expect(first.status, first.text).toBe(201);
    const again = await dealer.post("/api/uploads/import", { url: site.url("/car.jpg") }, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await dealer.get("/api/objects")).json.length).toBe(before + 1);
  });

  it("follows a redirect to an allowed address, and names a link without an extension by its type", async () => {
    const moved = await importLink(site.url("/moved"));
    expect(moved.status, moved.text).toBe(201);
    expect(moved.json).toMatchObject({ name: "car.jpg", size: car.length });
    const typed = await importLink(site.url("/photo?id=3"), { purpose: "dashboard" });
    expect(typed.status, typed.text).toBe(201);
    expect(typed.json).toMatchObject({ name: "photo.png", type: "image/png" });
  });

  it("refuses a file that grows past the purpose's limit while it streams (413), keeping nothing", async () => {
    const before = (await dealer.get("/api/objects")).json.length;
    const res = await importLink(site.url("/endless.jpg"), { purpose: "dashboard" });
    expect(res.status, res.text).toBe(413);
    expect(res.json.message).toBe("endless.jpg exceeds maximum allowed size of 50 MB");
    expect((await dealer.get("/api/objects")).json.length).toBe(before);
  });

  it.runIf(backend === "local")("refuses private, loopback and link-local targets, also after a redirect (400, nothing fetched)", async () => {
    for (const target of [
      `http://127.0.0.2:${site.port}/car.jpg`,
      `http://[::1]:${site.port}/car.jpg`,
      "http://10.0.0.1/car.jpg",
      "http://192.168.1.1/car.jpg",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/car.jpg",
    ]) {
      const res = await importLink(target);
      expect(res.status, `${target}: ${res.text}`).toBe(400);
      expect(res.json.message, target).toMatch(/is on a private or local network, which this server does not connect to$/);
    }
    for (const path of ["/to-private", "/to-metadata"]) {
      const res = await importLink(site.url(path));
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.json.message, path).toMatch(/^(127\.0\.0\.2|169\.254\.169\.254) is on a private or local network/);
    }
  });

  it.runIf(backend === "local")("refuses a declared size over the limit (413) and the wrong type by header, name or first bytes (415)", async () => {
    const huge = await importLink(site.url("/declared-huge.jpg"));
    expect(huge.status, huge.text).toBe(413);
    expect(huge.json.message).toBe("declared-huge.jpg exceeds maximum allowed size of 100 MB");
    const only = "You can only upload: .jpg, .jpeg, .png, .gif, .mp4, .mov";
    for (const path of ["/page.html", "/fake.jpg"]) {
      const res = await importLink(site.url(path));
      expect(res.status, `${path}: ${res.text}`).toBe(415);
      expect(res.json.message).toBe(only);
    }
    expect((await dealer.get("/api/objects")).json.map((u: { name: string }) => u.name)).not.toContain("fake.jpg");
  });

  it.runIf(backend === "local")("answers 400 with a message for a link it cannot use, and 401 signed out", async () => {
    const cases: [unknown, RegExp][] = [
      ["file:///etc/passwd", /^Only http and https links can be imported$/],
      ["not a link", /^The link is not a valid URL$/],
      [`http://user:secret@127.0.0.1:${site.port}/car.jpg`, /user name or password/],
      [site.url("/missing.jpg"), /^The link answered 404$/],
      ["", /^Enter a link to a photo or video$/],
      [{ $gt: "" }, /must be a string/],
    ];
    for (const [url, message] of cases) {
      const res = await importLink(url);
      expect(res.status, `${JSON.stringify(url)}: ${res.text}`).toBe(400);
      expect(JSON.stringify(res.json), JSON.stringify(url)).toMatch(message.source.replace(/^\^|\$$/g, ""));
    }
    expect((await client(app).post("/api/uploads/import", { url: site.url("/car.jpg") })).status).toBe(401);
  });

  it.runIf(backend === "local")("adds a file from the wizard's 'Add from a link' field without JavaScript, and says why it refused one", async () => {
    const post = (url: string) =>
      fetch(`${app.url}/upload`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: app.url },
        body: new URLSearchParams({ intent: "link", url }),
      });
    const ok = await post(site.url("/car.jpg"));
    expect(ok.status).toBe(302);
    const page = await fetch(`${app.url}/upload?added=1`, { headers: { Cookie: ok.headers.get("set-cookie")?.split(";")[0] ?? cookie } }).then((r) => r.text());
    expect(page).toContain("Add from a link");
    expect(page).toContain("1 file(s) uploaded successfully");
    expect(page).toContain("car.jpg");
    const refused = await post("http://10.0.0.1/car.jpg");
    expect(refused.status).toBe(302);
    const after = await fetch(`${app.url}/upload?added=1`, { headers: { Cookie: refused.headers.get("set-cookie")?.split(";")[0] ?? cookie } }).then((r) => r.text());
    expect(after).toContain("10.0.0.1 is on a private or local network, which this server does not connect to");
  });
});

/** Everything the app's websocket for `token` sends, until it closes. */
function follow(app: RunningApp, token: string, cookie: string) {
  return new Promise<{ action: string; payload: Record<string, unknown> }[]>((resolve, reject) => {
    const socket = new WebSocket(`${app.url.replace(/^http/, "ws")}/api/uploads/api/${token}`, { headers: { Cookie: cookie } });
    const received: { action: string; payload: Record<string, unknown> }[] = [];
    socket.on("message", (data) => received.push(JSON.parse(String(data))));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
}

describe("the upload widget's remote files: the Companion protocol's url/meta, url/get and websocket", () => {
  let app: RunningApp;
  let dealer: Client;
  let cookie: string;

  beforeAll(async () => {
    await useTestDb();
    app = await startApp({ env: { OUTBOUND_ALLOW: "127.0.0.1" } });
    const user = await createTestUser({ role: "dealer" });
    cookie = await signIn(app, user.username, user.password);
    dealer = client(app, { cookie });
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("url/meta says what the link declares, and refuses a private target or a web page", async () => {
    const meta = await dealer.post("/api/uploads/url/meta", { url: site.url("/car.jpg") });
    expect(meta.status, meta.text).toBe(200);
    expect(meta.json).toEqual({ name: "car.jpg", type: "image/jpeg", size: car.length });
    const moved = await dealer.post("/api/uploads/url/meta", { url: site.url("/to-private") });
    expect(moved.status).toBe(400);
    expect(moved.json.message).toBe("127.0.0.2 is on a private or local network, which this server does not connect to");
    expect((await dealer.post("/api/uploads/url/meta", { url: site.url("/page.html") })).status).toBe(415);
    expect((await client(app).post("/api/uploads/url/meta", { url: site.url("/car.jpg") })).status).toBe(401);
  });

  it("url/get answers a token; its socket sends progress as the file arrives, then success with the upload", async () => {
    const get = await dealer.post("/api/uploads/url/get", { url: site.url("/slow.jpg"), fileId: site.url("/slow.jpg"), protocol: "s3-multipart", size: car.length, metadata: { purpose: "wizard" } });
    expect(get.status, get.text).toBe(200);
    expect(get.json.token).toMatch(/^[0-9a-f]{48}$/);
    const messages = await follow(app, get.json.token, cookie);
    const progress = messages.filter((m) => m.action === "progress");
    expect(progress.length, JSON.stringify(messages)).toBeGreaterThanOrEqual(2);
    const uploaded = progress.map((m) => Number(m.payload.bytesUploaded));
    expect(uploaded).toEqual([...uploaded].sort((a, b) => a - b));
    expect(progress.at(-1)?.payload).toMatchObject({ progress: "100.00", bytesUploaded: car.length, bytesTotal: car.length });
    const success = messages.at(-1);
    expect(success?.action).toBe("success");
    const response = success?.payload.response as { responseText: string };
    const upload = JSON.parse(response.responseText);
    expect(upload).toMatchObject({ name: "slow.jpg", type: "image/jpeg", size: car.length, state: "complete" });
    expect(success?.payload.url).toBe(`${app.url}/media/${upload.id}`);
    const media = await fetch(`${app.url}/media/${upload.id}`, { headers: { Cookie: cookie } });
    expect(Buffer.from(await media.arrayBuffer()).equals(car)).toBe(true);
  });

  it("a refused link ends on the socket with an error carrying the reason; an unknown token too", async () => {
    for (const [path, reason] of [
      ["/to-metadata", "169.254.169.254 is on a private or local network, which this server does not connect to"],
      ["/fake.jpg", "You can only upload: .jpg, .jpeg, .png, .gif, .mp4, .mov"],
    ]) {
      const get = await dealer.post("/api/uploads/url/get", { url: site.url(path), metadata: { purpose: "wizard" } });
      expect(get.status, get.text).toBe(200);
      const messages = await follow(app, get.json.token, cookie);
      expect(messages.at(-1)).toEqual({ action: "error", payload: { error: { message: reason } } });
    }
    const unknown = await follow(app, "0".repeat(48), cookie);
    expect(unknown).toEqual([{ action: "error", payload: { error: { message: "Upload not found" } } }]);
    expect((await client(app).post("/api/uploads/url/get", { url: site.url("/car.jpg") })).status).toBe(401);
  });
});

describe("two instances on one database: the socket on one follows an import running on the other", () => {
  let s3: RunningS3;
  let apps: RunningApp[] = [];

  beforeAll(async () => {
    await useTestDb();
    s3 = await startS3Server();
    const env = (name: string) => ({ ...s3.appEnv, INSTANCE_NAME: name, OUTBOUND_ALLOW: "127.0.0.1" });
    apps = await Promise.all([startApp({ env: env("link-a") }), startApp({ env: env("link-b") })]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await s3?.stop();
  });

  it("url/get on A, the websocket on B: progress, then success with the upload stored in S3", async () => {
    const [a, b] = apps;
    const user = await createTestUser({ role: "dealer" });
    const cookie = await signIn(a, user.username, user.password);
    const get = await client(a, { cookie }).post("/api/uploads/url/get", { url: site.url("/slow.jpg"), metadata: { purpose: "dashboard" } });
    expect(get.status, get.text).toBe(200);
    const messages = await follow(b, get.json.token, cookie);
    expect(messages.filter((m) => m.action === "progress").length, JSON.stringify(messages)).toBeGreaterThanOrEqual(2);
    expect(messages.at(-1)?.action).toBe("success");
    const upload = JSON.parse((messages.at(-1)?.payload.response as { responseText: string }).responseText);
    expect(upload).toMatchObject({ name: "slow.jpg", size: car.length, state: "complete" });
    // Read back through B, from the bucket.
    const media = await fetch(`${b.url}/media/${upload.id}`, { headers: { Cookie: cookie } });
    expect(Buffer.from(await media.arrayBuffer()).equals(car)).toBe(true);
  });
});
