import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Upload } from "../../app/models/upload.server";
import { client } from "../accounts";
import { type RunningApp } from "../app-server";
import { startSignedInApp } from "../signed-in-app";

// The second review's smaller findings (issue 23, item 11): methods the app does not serve, which
// JSON bodies it reads, Companion's state-changing GET, and where absolute upload URLs point.

let app: RunningApp;
let cookie: string;
beforeAll(async () => {
  ({ app, cookie } = await startSignedInApp());
});
afterAll(() => app?.stop());

const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${app.url}${path}`, { method, redirect: "manual", headers: { Cookie: cookie, ...headers }, body });

/** A request fetch will not make (TRACE, a Host header of the client's choosing). */
function nodeRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method, headers: { Cookie: cookie, ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("methods", () => {
  it.each(["/", "/login", "/api/contacts", "/api/auth/user", "/media/0123456789abcdef01234567"])("TRACE %s is a 405, not a 500", async (path) => {
    const res = await nodeRequest("TRACE", path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain("GET");
    expect(JSON.parse(res.text)).toEqual({ message: "Method not allowed" });
  });

  it("OPTIONS answers 204 without running the route: GET s3/params would record an upload", async () => {
    const before = await Upload.countDocuments();
    const res = await raw("OPTIONS", "/api/uploads/s3/params?filename=a.jpg&type=image/jpeg");
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toContain("OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await Upload.countDocuments()).toBe(before);
    expect((await raw("OPTIONS", "/api/contacts")).status).toBe(204);
  });
});

describe("JSON bodies", () => {
  const contact = JSON.stringify({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
  it.each(["text/plain; charset=json", "text/json-ish", "application/jsonp", "application/x-json-stream", "multipart/form-data; boundary=json", "application/json-seq"])(
    "a body sent as %s is a 415, nothing stored",
    async (type) => {
      const c = client(app, { cookie });
      const before = (await c.get("/api/contacts")).json.length;
      const res = await raw("POST", "/api/contacts", { "Content-Type": type, Origin: app.url }, contact);
      expect(res.status).toBe(415);
      expect((await c.get("/api/contacts")).json.length).toBe(before);
    },
  );

  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json", "application/vnd.api+json"])(
    "a body sent as %s is read",
    async (type) => {
      expect((await raw("POST", "/api/contacts", { "Content-Type": type, Origin: app.url }, contact)).status).toBe(201);
    },
  );
});

describe("GET /api/uploads/s3/params (Companion's protocol: a GET that records an upload)", () => {
  const params = "/api/uploads/s3/params?filename=a.jpg&type=image/jpeg";
  it.each<Record<string, string>>([{ "Sec-Fetch-Site": "cross-site" }, { "Sec-Fetch-Site": "same-site" }, { Origin: "https://evil.example" }, { Origin: "null" }])(
    "refuses a request another site started (%j): 403, nothing recorded",
    async (headers) => {
      const before = await Upload.countDocuments();
      const res = await raw("GET", params, headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: "Cross-site request rejected" });
      expect(await Upload.countDocuments()).toBe(before);
    },
  );

  it("answers this site's page and an API client", async () => {
    expect((await raw("GET", params, { "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    expect((await raw("GET", params)).status).toBe(200);
  });
});

describe("absolute upload URLs without PUBLIC_URL", () => {
  const port = () => new URL(app.url).port;

  it("never point where the client's Host header says", async () => {
    for (const host of ["evil.example", `evil.example:${port()}`, "localhost:1"]) {
      const single = await nodeRequest("POST", "/api/objects/upload", { Host: host, "Content-Type": "application/json", "Content-Length": "2" }, "{}");
      expect(single.status).toBe(200);
      expect(new URL((JSON.parse(single.text) as { uploadURL: string }).uploadURL).origin).toBe(`http://localhost:${port()}`);
      const form = await nodeRequest("GET", "/api/uploads/s3/params?filename=a.jpg&type=image/jpeg", { Host: host });
      expect(new URL((JSON.parse(form.text) as { url: string }).url).origin).toBe(`http://localhost:${port()}`);
    }
  });

  it("use the address the request came to when it names this machine", async () => {
    const res = await raw("POST", "/api/objects/upload", { "Content-Type": "application/json", Origin: app.url }, "{}");
    expect(new URL(((await res.json()) as { uploadURL: string }).uploadURL).origin).toBe(app.url);
  });
});
