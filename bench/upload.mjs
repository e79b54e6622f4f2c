// Upload benchmarks (loopback, some through a shaping proxy; bounded in size and time; local storage):
//  1. throughput: a 100 MB file through the app's multipart path (create; sign + PUT 5 MiB parts as
//     the browser uploader does: signed 8 at a time ahead of need, one part in flight, then four once
//     the line shows it is fast; complete) vs one raw PUT of the same file to the same backend, on a
//     fast office line (100 Mbit/s up, 20 ms round trip: the target, ratio ≥ 0.8) and straight over
//     loopback (the worst case, reported). Unpatched Uppy 6 (each part signed and sent one at a time)
//     is printed for comparison.
//  2. memory: the server's RSS growth while 1 GB in total (10 × 100 MB, two files at a time, sent as
//     the browser uploader does) is uploaded. Target ≤ 64 MB.
//  3. slow line: through a throttling TCP proxy (1.6 Mbps up, 150 ms round trip) the connection is cut
//     in the middle of a part; the client sends one part at a time (the uploader's rule on a slow line)
//     and resumes like the uploader (retry delays, list parts, send the missing ones). Target: the upload completes and the bytes sent twice are ≤ one part (5 MiB).
// Env: BENCH_MB (100), BENCH_TOTAL_MB (1024), THROTTLE_KBIT (1600), SLOW_FILE_MB (10.5), PART_CONCURRENCY (4),
// FAST_LINE_KBIT (100000), FAST_LINE_RTT_MS (20),
// BENCH_ONLY (throughput,memory,slow,s3). The S3 run uses S3Proxy from the Maven cache when it is there.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 1024 * 1024;
const PART = 5 * MiB;
const FILE_BYTES = Math.round(Number(process.env.BENCH_MB ?? 100) * 1000 * 1000);
const TOTAL_BYTES = Number(process.env.BENCH_TOTAL_MB ?? 1024) * MiB;
const THROTTLE_BPS = (Number(process.env.THROTTLE_KBIT ?? 1600) * 1000) / 8;
const FAST_LINE_BPS = (Number(process.env.FAST_LINE_KBIT ?? 100_000) * 1000) / 8;
const FAST_LINE_RTT_MS = Number(process.env.FAST_LINE_RTT_MS ?? 20);
const ONE_WAY_DELAY_MS = 75;
const SLOW_FILE_BYTES = Math.round(Number(process.env.SLOW_FILE_MB ?? 10.5) * MiB);
const RETRY_DELAYS = [0, 1000, 3000, 5000];
const PART_CONCURRENCY = Number(process.env.PART_CONCURRENCY ?? 4);
const DEADLINE = Date.now() + 15 * 60 * 1000;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const rate = (bytes, ms) => `${((bytes / MiB) / (ms / 1000)).toFixed(1)} MiB/s`;

function checkDeadline() {
  if (Date.now() > DEADLINE) throw new Error("benchmark exceeded its 15 minute bound");
}

/** An MP4-looking payload (ftyp box, then random bytes). */
function payload(size) {
  const buf = randomBytes(size);
  Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2")]).copy(buf, 0);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// App

let appPort;
async function startApp(extraEnv = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-upload-"));
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production", STORAGE: "local", ...extraEnv };
  delete env.MONGODB_URI;
  const child = spawn(process.execPath, ["server.mjs"], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  appPort = String(port);
  for (const t0 = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`app exited:\n${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) break;
    } catch {
      // starting
    }
    if (Date.now() - t0 > 60_000) throw new Error(`app did not start:\n${stderr}`);
    await sleep(50);
  }
  const creds = { username: "benchadmin", password: "bench-password-1" };
  const created = await fetch(`${url}/api/admin/create-account`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...creds, email: "bench@example.com", firstName: "Bench", lastName: "Admin" }),
  });
  if (created.status !== 201) throw new Error(`admin set-up failed: ${created.status} ${await created.text()}`);
  const login = await fetch(`${url}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(creds),
  });
  const cookie = login.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error("login failed");
  return {
    url,
    cookie,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Minimal HTTP client on node:http (no keep-alive surprises, errors surface as rejections). */
const directAgent = new http.Agent({ keepAlive: true });
// Through the proxies every request gets a connection of its own (a cut drops only that one).
const proxiedAgent = new http.Agent({ keepAlive: false });
function request(url, { method = "GET", headers = {}, body } = {}) {
  const agent = appPort && new URL(url).port !== appPort ? proxiedAgent : directAgent;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, ...(body ? { "Content-Length": body.length } : {}) }, agent });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.end(body);
  });
}

function api(app, base = app.url) {
  const headers = { Cookie: app.cookie };
  const call = async (method, p, json) => {
    const res = await request(`${base}${p}`, {
      method,
      headers: json ? { ...headers, "Content-Type": "application/json" } : headers,
      body: json ? Buffer.from(JSON.stringify(json)) : undefined,
    });
    if (res.status >= 400) throw Object.assign(new Error(`${method} ${p}: ${res.status} ${res.text}`), { status: res.status });
    return res.json;
  };
  return {
    get: (p) => call("GET", p),
    post: (p, json) => call("POST", p, json ?? {}),
    del: (p) => call("DELETE", p),
  };
}

const q = (key) => `?key=${encodeURIComponent(key)}`;
const MP = "/api/uploads/s3/multipart";

async function rawPut(app, file, name, base = app.url) {
  const client = api(app, base);
  const { uploadURL, id } = await client.post("/api/objects/upload", { filename: name, type: "video/mp4" });
  const t0 = performance.now();
  const res = await request(uploadURL, { method: "PUT", body: file, headers: { "Content-Type": "video/mp4" } });
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`raw PUT: ${res.status} ${res.text}`);
  await client.del(`/api/objects/${id}`);
  return ms;
}

/** The browser uploader's rule (app/schemas/upload-limits.ts partsInFlight): 1 part, 4 once fast. */
const FAST_LINE_BYTES_PER_SECOND = 2 * MiB;
const partsInFlight = (bytesPerSecond) => ((bytesPerSecond ?? 0) >= FAST_LINE_BYTES_PER_SECOND ? PART_CONCURRENCY : 1);

/**
 * The multipart path: create, then sign + PUT the 5 MiB parts, then complete. `partLimit` (a number,
 * or a function of the last part's bytes per second, like the patched browser uploader) bounds the
 * parts in flight; `signBatch` parts are signed per call (the browser uploader: 8).
 */
async function multipartUpload(app, file, name, { base = app.url, keep = false, partLimit = 1, signBatch = 1 } = {}) {
  const client = api(app, base);
  const t0 = performance.now();
  const { key, uploadId } = await client.post(MP, { filename: name, type: "video/mp4" });
  const count = Math.ceil(file.length / PART);
  const parts = [];
  // Like the patched uploader: `signBatch` parts per call, the next call made while 4 signed remain.
  const signed = new Map();
  const signFrom = (from) => {
    let first = from;
    while (signed.has(first)) first += 1;
    const numbers = Array.from({ length: signBatch }, (_, i) => first + i);
    const batch = client.get(`${MP}/${uploadId}/batch${q(key)}&partNumbers=${numbers.join(",")}`);
    for (const m of numbers) signed.set(m, batch.then((r) => r.presignedUrls[m]));
  };
  const sign = (n) => {
    if (!signed.has(n)) signFrom(n);
    else if (!signed.has(n + 4)) signFrom(n + 1);
    return signed.get(n);
  };
  let next = 1;
  let inFlight = 0;
  let bytesPerSecond;
  const limit = () => (typeof partLimit === "function" ? partLimit(bytesPerSecond) : partLimit);
  const sendPart = async (n) => {
    const started = performance.now();
    const url = signBatch > 1 ? await sign(n) : (await client.get(`${MP}/${uploadId}/${n}${q(key)}`)).url;
    const body = file.subarray((n - 1) * PART, Math.min(n * PART, file.length));
    const res = await request(url, { method: "PUT", body });
    if (res.status !== 200) throw new Error(`part ${n}: ${res.status} ${res.text}`);
    bytesPerSecond = (body.length * 1000) / Math.max(1, performance.now() - started);
    parts[n - 1] = { PartNumber: n, ETag: res.headers.etag };
  };
  await new Promise((resolve, reject) => {
    const fill = () => {
      while (next <= count && inFlight < limit()) {
        inFlight += 1;
        sendPart(next++).then(() => {
          inFlight -= 1;
          if (next > count && inFlight === 0) resolve();
          else fill();
        }, reject);
      }
    };
    fill();
  });
  const done = await client.post(`${MP}/${uploadId}/complete${q(key)}`, { parts });
  const ms = performance.now() - t0;
  if (!keep) await client.del(`/api/objects/${done.id}`);
  return { ms, done };
}

// ---------------------------------------------------------------------------------------------
// 1. Throughput

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const MODES = [
  {
    name: "browser",
    label: "the browser uploader: signed 8 at a time ahead of need, 1 in flight then 4 once fast",
    options: { partLimit: partsInFlight, signBatch: 8 },
  },
  { name: "sequential", label: "each part signed, one at a time (unpatched Uppy 6)", options: { partLimit: 1 } },
];

async function compare(app, file, label, base = app.url, runs = 3) {
  const raw = [];
  const times = Object.fromEntries(MODES.map((m) => [m.name, []]));
  for (let i = 0; i < runs; i++) {
    checkDeadline();
    raw.push(await rawPut(app, file, `raw-${i}.mp4`, base));
    for (const mode of MODES) times[mode.name].push((await multipartUpload(app, file, `${mode.name}-${i}.mp4`, { base, ...mode.options })).ms);
  }
  const r = median(raw);
  const parts = Math.ceil(file.length / PART);
  console.log(`upload: [${label}] ${mb(file.length)} one raw PUT: median ${(r / 1000).toFixed(2)} s (${rate(file.length, r)})`);
  const ratios = {};
  for (const mode of MODES) {
    const m = median(times[mode.name]);
    ratios[mode.name] = r / m;
    console.log(`upload: [${label}] multipart, ${parts} × 5 MiB parts, ${mode.label}: median ${(m / 1000).toFixed(2)} s (${rate(file.length, m)}), ratio ${(r / m).toFixed(2)}`);
  }
  return ratios;
}

async function throughput(app, label = "local", { shaped = true } = {}) {
  const file = payload(FILE_BYTES);
  await rawPut(app, file.subarray(0, 20 * MiB), "warmup.mp4");
  await multipartUpload(app, file.subarray(0, 20 * MiB), "warmup.mp4");
  // Straight over loopback (0.5–0.7 GB/s here): the fixed costs of a multipart upload (create, the
  // first part alone, complete: about 50 ms of database and request work) weigh as much as they ever
  // will against a 0.15 s transfer. Reported as the worst case.
  const loop = await compare(app, file, `${label}, loopback`, app.url, 5);
  if (!shaped) return true;
  // A fast office line, where bandwidth is what limits an upload as it does for users: the target.
  const proxy = await throttlingProxy(Number(new URL(app.url).port), FAST_LINE_BPS, FAST_LINE_RTT_MS / 2);
  let line;
  try {
    line = await compare(app, file, `${label}, ${FAST_LINE_BPS / 125000} Mbit/s ${FAST_LINE_RTT_MS} ms RTT`, `http://127.0.0.1:${proxy.port}`, 3);
  } finally {
    await proxy.close();
  }
  const pass = line.browser >= 0.8;
  console.log(
    `upload: [${label}] multipart/raw throughput ratio as the browser uploader sends: ${line.browser.toFixed(2)} on the fast line (target ≥ 0.8) ${pass ? "PASS" : "FAIL"}, ${loop.browser.toFixed(2)} on loopback`,
  );
  return pass;
}

// ---------------------------------------------------------------------------------------------
// 2. Memory

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

async function memory(app) {
  const file = payload(FILE_BYTES);
  // Warm up (JIT, buffers) before taking the baseline.
  await multipartUpload(app, file.subarray(0, 30 * MiB), "warm.mp4");
  await sleep(500);
  const baseline = rssOf(app.pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(app.pid));
  }, 50);
  const files = Math.ceil(TOTAL_BYTES / FILE_BYTES);
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < files) {
      checkDeadline();
      next += 1;
      await multipartUpload(app, file, `mem-${next}.mp4`, MODES[0].options);
    }
  };
  await Promise.all([worker(), worker()]);
  clearInterval(sampler);
  const ms = performance.now() - t0;
  const growth = peak - baseline;
  console.log(
    `upload: ${files} × ${mb(FILE_BYTES)} = ${mb(files * FILE_BYTES)} in ${(ms / 1000).toFixed(1)} s (${rate(files * FILE_BYTES, ms)}), server RSS ${mb(baseline)} → peak ${mb(peak)}`,
  );
  console.log(`upload: server RSS growth ${mb(growth)} (target ≤ 64 MiB) ${growth <= 64 * MiB ? "PASS" : "FAIL"}`);
  return growth <= 64 * MiB;
}

// ---------------------------------------------------------------------------------------------
// 3. Slow line with a cut

/**
 * A TCP proxy to the app: client→server bytes limited to `bps` and delayed by the one-way latency,
 * server→client bytes delayed too. `cut()` arms a one-time cut once `afterBytes` more went upstream.
 */
function throttlingProxy(targetPort, bps, oneWayDelayMs = ONE_WAY_DELAY_MS) {
  let upstream = 0;
  let cutAt = Infinity;
  let cuts = 0;
  let sendAt = 0; // shared upstream line: when its next byte can go
  // Bytes a connection may have on the wire: twice the bandwidth-delay product (as TCP window
  // scaling allows), at least 64 KiB; a smaller window would cap one connection below the line.
  const window = Math.max(64 * 1024, Math.ceil(2 * bps * ((2 * oneWayDelayMs) / 1000)));
  const sockets = new Set();
  const server = net.createServer((client) => {
    const target = net.connect(targetPort, "127.0.0.1");
    // No Nagle: small writes (headers, short answers) must not wait for delayed ACKs.
    client.setNoDelay(true);
    target.setNoDelay(true);
    sockets.add(client);
    const drop = () => {
      client.destroy();
      target.destroy();
      sockets.delete(client);
    };
    client.on("error", drop);
    target.on("error", drop);
    client.on("close", () => sockets.delete(client));

    /** One direction: an ordered queue of (due time, chunk, or END), drained by a single pump. */
    const lane = (from, to, { paced }) => {
      const queue = [];
      let bytes = 0;
      let timer = null;
      const pump = () => {
        timer = null;
        while (queue.length > 0 && queue[0].due <= Date.now()) {
          const { chunk } = queue.shift();
          if (chunk === null) {
            if (!to.destroyed) to.end();
            return;
          }
          bytes -= chunk.length;
          if (to.destroyed) return;
          to.write(chunk);
          if (paced) {
            upstream += chunk.length;
            if (upstream >= cutAt) {
              cutAt = Infinity;
              cuts += 1;
              drop();
              return;
            }
          }
        }
        if (bytes <= window) from.resume();
        if (queue.length > 0) timer = setTimeout(pump, Math.max(queue[0].due - Date.now(), 0));
      };
      const push = (chunk) => {
        let due = Date.now() + oneWayDelayMs;
        if (paced && chunk) {
          sendAt = Math.max(sendAt, Date.now()) + (chunk.length / bps) * 1000;
          due = sendAt + oneWayDelayMs;
        }
        queue.push({ due, chunk });
        if (chunk) {
          bytes += chunk.length;
          if (bytes > window) from.pause();
        }
        if (!timer) timer = setTimeout(pump, Math.max(queue[0].due - Date.now(), 0));
      };
      from.on("data", push);
      from.on("end", () => push(null));
    };
    lane(client, target, { paced: true });
    lane(target, client, { paced: false });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: server.address().port,
        get upstream() {
          return upstream;
        },
        get cuts() {
          return cuts;
        },
        cutAfter(bytes) {
          cutAt = upstream + bytes;
        },
        close: () =>
          new Promise((r) => {
            for (const s of sockets) s.destroy();
            server.close(r);
          }),
      });
    });
  });
}

/** Uploads like the browser does on a bad line: on failure wait the next retry delay, list parts, go on. */
async function resilientUpload(app, base, file, proxy) {
  const client = api(app, base);
  const { key, uploadId } = await client.post(MP, { filename: "slow.mp4", type: "video/mp4" });
  const partCount = Math.ceil(file.length / PART);
  const etags = new Map();
  let attempt = 0;
  let partBytesSent = 0;
  for (;;) {
    checkDeadline();
    try {
      for (let n = 1; n <= partCount; n++) {
        if (etags.has(n)) continue;
        const { url } = await client.get(`${MP}/${uploadId}/${n}${q(key)}`);
        const body = file.subarray((n - 1) * PART, Math.min(n * PART, file.length));
        // The line drops half-way through part 2, the first time.
        if (n === 2 && proxy.cuts === 0) proxy.cutAfter(Math.floor(body.length / 2));
        partBytesSent += body.length;
        const res = await request(url, { method: "PUT", body });
        if (res.status !== 200) throw new Error(`part ${n}: ${res.status}`);
        etags.set(n, res.headers.etag);
      }
      const parts = [...etags].sort((a, b) => a[0] - b[0]).map(([PartNumber, ETag]) => ({ PartNumber, ETag }));
      const done = await client.post(`${MP}/${uploadId}/complete${q(key)}`, { parts });
      return { done, attempts: attempt + 1, partBytesSent };
    } catch (error) {
      attempt += 1;
      if (attempt >= RETRY_DELAYS.length) throw error;
      await sleep(RETRY_DELAYS[attempt]);
      // Resume from what the server has.
      const stored = await client.get(`${MP}/${uploadId}${q(key)}`);
      etags.clear();
      for (const p of stored) etags.set(p.PartNumber, p.ETag);
    }
  }
}

async function slowLine(app) {
  const file = payload(SLOW_FILE_BYTES);
  const proxy = await throttlingProxy(Number(new URL(app.url).port), THROTTLE_BPS);
  const base = `http://127.0.0.1:${proxy.port}`;
  const t0 = performance.now();
  try {
    const { done, attempts } = await resilientUpload(app, base, file, proxy);
    const ms = performance.now() - t0;
    // Everything that went upstream beyond the file itself: requests' headers and the bytes of the cut part.
    const extra = proxy.upstream - file.length;
    const same = (await request(`${app.url}${done.url}`, { headers: { Cookie: app.cookie } })).text.length > 0;
    console.log(
      `upload: slow line ${(THROTTLE_BPS * 8) / 1000} kbit/s, ${2 * ONE_WAY_DELAY_MS} ms RTT: ${mb(file.length)} in ${(ms / 1000).toFixed(1)} s, ${proxy.cuts} cut, ${attempts} attempts, complete=${done.size === file.length && same}`,
    );
    console.log(
      `upload: bytes sent upstream ${mb(proxy.upstream)} for a ${mb(file.length)} file: ${mb(extra)} sent twice or overhead (target ≤ one part, 5 MiB) ${extra <= PART && proxy.cuts === 1 ? "PASS" : "FAIL"}`,
    );
    return extra <= PART && done.size === file.length && proxy.cuts === 1;
  } finally {
    await proxy.close();
  }
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// The S3 backend (S3Proxy from the Maven cache, as the tests use it), when Java and the jar are there

const S3PROXY_JAR = path.join(
  process.env.MAVEN_REPO_LOCAL ?? path.join(os.homedir(), ".m2", "repository"),
  "org/gaul/s3proxy/2.6.0/s3proxy-2.6.0-jar-with-dependencies.jar",
);

async function startS3Proxy() {
  if (!existsSync(S3PROXY_JAR)) return null;
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-s3-"));
  mkdirSync(path.join(dir, "data"));
  const endpoint = `http://127.0.0.1:${port}`;
  const creds = { accessKeyId: "bench-access", secretAccessKey: "bench-secret-key-0123456789" };
  writeFileSync(
    path.join(dir, "s3proxy.conf"),
    [
      `s3proxy.endpoint=${endpoint}`,
      "s3proxy.authorization=aws-v2-or-v4",
      `s3proxy.identity=${creds.accessKeyId}`,
      `s3proxy.credential=${creds.secretAccessKey}`,
      "jclouds.provider=filesystem",
      `jclouds.filesystem.basedir=${path.join(dir, "data")}`,
      "jclouds.identity=unused",
      "jclouds.credential=unused",
    ].join("\n"),
  );
  const child = spawn("java", ["-Xmx512m", "-jar", S3PROXY_JAR, "--properties", path.join(dir, "s3proxy.conf")], {
    stdio: "ignore",
  });
  for (const t0 = Date.now(); ; ) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      if (Date.now() - t0 > 30_000 || child.exitCode !== null) throw new Error("S3Proxy did not start");
      await sleep(100);
    }
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
  const { S3Client, CreateBucketCommand } = await import("@aws-sdk/client-s3");
  const s3 = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: creds });
  await s3.send(new CreateBucketCommand({ Bucket: "bench" }));
  s3.destroy();
  return {
    env: {
      STORAGE: "s3",
      S3_BUCKET: "bench",
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: creds.accessKeyId,
      AWS_SECRET_ACCESS_KEY: creds.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------

const only = (process.env.BENCH_ONLY ?? "throughput,memory,slow,s3").split(",");
let ok = true;
const app = await startApp();
try {
  if (only.includes("throughput")) ok = (await throughput(app)) && ok;
  if (only.includes("memory")) ok = (await memory(app)) && ok;
  if (only.includes("slow")) ok = (await slowLine(app)) && ok;
} catch (error) {
  console.error(`upload: ${error.message}`);
  ok = false;
} finally {
  await app.stop();
}
if (only.includes("s3")) {
  const s3 = await startS3Proxy().catch((error) => {
    console.log(`upload: [s3] skipped: ${error.message}`);
    return null;
  });
  if (!s3) {
    console.log("upload: [s3] skipped: no S3Proxy jar in the Maven cache (the S3 API tests fetch it)");
  } else {
    const s3app = await startApp(s3.env);
    try {
      // For information: S3Proxy's own multipart (joining parts on its filesystem) is part of this figure.
      // Loopback only: the parts go straight to S3Proxy, around the shaping proxy.
      await throughput(s3app, "s3 (S3Proxy)", { shaped: false });
    } catch (error) {
      console.error(`upload: [s3] ${error.message}`);
      ok = false;
    } finally {
      await s3app.stop();
      await s3.stop();
    }
  }
}
process.exit(ok ? 0 : 1);
