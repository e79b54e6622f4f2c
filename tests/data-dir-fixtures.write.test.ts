import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { startApp } from "./app-server";
import { FIXTURE_ROOT, MAIL_LOGIN, figuresOf, writeInstallation, type Expected } from "./data-dir-fixture";
import { startOpenAiTestServer } from "./openai-server";
import { startSmtpServer } from "./smtp-server";
import { startReceiver } from "./webhook-receiver";

// Writes a kept installation with this release (issue 41 item 6): run it when a change needs a
// migration, `node scripts/write-data-dir-fixture.mjs`, and commit the new directory. The suite runs
// tests/data-dir-fixtures.test.ts, which opens every kept one; this file writes only when asked.
const name = process.env.WRITE_DATA_DIR_FIXTURE;

describe.runIf(name)("writing a kept installation", () => {
  it(`writes ${FIXTURE_ROOT}/${name}`, { timeout: 300_000 }, async () => {
    const dir = path.resolve(FIXTURE_ROOT, name!);
    if (existsSync(dir)) throw new Error(`${dir} exists: a kept installation is never rewritten`);
    const dataDir = path.join(dir, "data");
    mkdirSync(dataDir, { recursive: true });
    const [ai, smtp, receiver] = await Promise.all([startOpenAiTestServer(), startSmtpServer({ auth: MAIL_LOGIN }), startReceiver()]);
    const app = await startApp({ mongoUri: null, dataDir, env: { OUTBOUND_ALLOW: "loopback" } });
    try {
      const { secrets, cookies } = await writeInstallation(app, { ai, smtp, receiver });
      const figures = await figuresOf(app, cookies);
      await app.stop();
      const release = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
      const expected: Expected = { release, writtenAt: new Date().toISOString(), ...secrets, figures };
      writeFileSync(path.join(dir, "expected.json"), `${JSON.stringify(expected, null, 2)}\n`);
      // The port is this machine's choice, not the installation's.
      rmSync(path.join(dataDir, "db", "port"), { force: true });
    } finally {
      await app.stop();
      await Promise.all([ai.close(), smtp.close(), receiver.close()]);
    }
  });
});
