import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { freePort, stopProcess } from "../app/utils/embedded-db.server";

// A real S3-compatible server for the S3 backend's tests: S3Proxy (Maven Central, org.gaul:s3proxy)
// on its filesystem backend, on a free loopback port, with AWS v2/v4 signature checking on.
// The jar (≈40 MB) is fetched once by Maven into ~/.m2 and reused; start-up takes about 2 s.

export const S3PROXY_VERSION = "2.6.0";
const ARTIFACT = `org.gaul:s3proxy:${S3PROXY_VERSION}:jar:jar-with-dependencies`;

// The SDK warns about Node 20 through console.error, which fails a test; the warning is not ours.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

function m2Repository() {
  return process.env.MAVEN_REPO_LOCAL ?? path.join(os.homedir(), ".m2", "repository");
}

/** Path of the S3Proxy jar, fetched with `mvn dependency:get` when it is not cached yet. */
export function ensureS3ProxyJar() {
  const jar = path.join(
    m2Repository(),
    "org/gaul/s3proxy",
    S3PROXY_VERSION,
    `s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`,
  );
  if (existsSync(jar)) return jar;
  const res = spawnSync("mvn", ["-q", "-B", "dependency:get", `-Dartifact=${ARTIFACT}`, "-Dtransitive=false"], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 300_000,
  });
  if (res.status !== 0 || !existsSync(jar)) {
    throw new Error(`could not fetch ${ARTIFACT} with Maven (needs Java 17+ and mvn):\n${res.stdout}\n${res.stderr}`);
  }
  return jar;
}

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Environment for an app that should use this server. */
  appEnv: Record<string, string>;
  client: S3Client;
  process: ChildProcess;
  /** Stops the server (the storage becomes unreachable), keeping its data for `bringUp`. */
  takeDown(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  bringUp(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `corsOrigin`: a browser origin allowed to PUT parts straight to the bucket, with the ETag header
 * exposed (what a real bucket's CORS rule must allow for the browser uploader).
 */
export async function startS3Server(options: { bucket?: string; corsOrigin?: string } = {}): Promise<RunningS3> {
  const jar = ensureS3ProxyJar();
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "damage-s3-"));
  const data = path.join(dir, "data");
  mkdirSync(data);
  const accessKeyId = "damageiq-test";
  const secretAccessKey = "damageiq-test-secret-key-0123456789";
  const endpoint = `http://127.0.0.1:${port}`;
  const properties = path.join(dir, "s3proxy.conf");
  writeFileSync(
    properties,
    [
      `s3proxy.endpoint=${endpoint}`,
      "s3proxy.authorization=aws-v2-or-v4",
      `s3proxy.identity=${accessKeyId}`,
      `s3proxy.credential=${secretAccessKey}`,
      "jclouds.provider=filesystem",
      `jclouds.filesystem.basedir=${data}`,
      "jclouds.identity=unused",
      "jclouds.credential=unused",
      ...(options.corsOrigin
        ? [
            // S3Proxy reads the origins as regular expressions.
            `s3proxy.cors-allow-origins=${options.corsOrigin.replace(/[.]/g, "\\.")}`,
            "s3proxy.cors-allow-methods=GET PUT POST HEAD",
            "s3proxy.cors-allow-headers=Content-Type",
            "s3proxy.cors-exposed-headers=ETag",
          ]
        : []),
    ].join("\n"),
  );
  /** Starts S3Proxy on the port and data directory, and waits for its first HTTP answer. */
  async function launch() {
    const child = spawn("java", ["-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar, "--properties", properties], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`S3Proxy exited at start:\n${output}`);
      try {
        await fetch(endpoint);
        return child; // any HTTP answer (403 for an anonymous request) means it is up
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`S3Proxy did not start within 30 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  let proc = await launch();

  const bucket = options.bucket ?? "damageiq-test";
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));

  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    client,
    get process() {
      return proc;
    },
    appEnv: {
      STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    async takeDown() {
      await stopProcess(proc);
    },
    async bringUp() {
      proc = await launch();
    },
    async stop() {
      client.destroy();
      await stopProcess(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
