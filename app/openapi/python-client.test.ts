import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePythonClientGenerator, PY_CLIENT_GENERATOR_BIN, PY_CLIENTS_VENV } from "../../scripts/setup.mjs";
import { createTestUser, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";
import { openApiDocument } from "./document.server";

// Issue 42 item 6: a client generated from the description (openapi-python-client) compiles, signs in
// with a token and syncs contacts by `updatedSince` and `X-Next-Cursor` while someone adds one.
let app: RunningApp;
let dir: string;
let token: string;

beforeAll(async () => {
  ensurePythonClientGenerator();
  await useTestDb();
  app = await startApp();
  token = await tokenFor((await createTestUser({ role: "dealer" })).id);
  dir = mkdtempSync(path.join(tmpdir(), "damageiq-py-client-"));
  writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(openApiDocument()));
}, 180_000);
afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SYNC_LOOP = `
import datetime, json, sys
from damageiq.client import AuthenticatedClient
from damageiq.api.contacts_and_packages import create_contact, list_contacts
from damageiq.models import CreateContactBody

client = AuthenticatedClient(base_url=sys.argv[1], token=sys.argv[2], raise_on_unexpected_status=True)
for i in range(3):
    made = create_contact.sync_detailed(client=client, body=CreateContactBody(first_name=f"Py {i}", last_name="Client", email=f"py{i}@client.test"))
    assert made.status_code == 201, made.content

seen, totals, cursor, page = [], [], None, 0
since = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
while True:
    kwargs = {"cursor": cursor} if cursor else {}
    res = list_contacts.sync_detailed(client=client, limit=2, updated_since=since, **kwargs)
    assert res.status_code == 200, res.content
    seen += [{"id": c.id, "firstName": c.first_name, "updatedAt": c.updated_at.isoformat()} for c in res.parsed]
    totals.append(int(res.headers["x-total-count"]))
    page += 1
    if page == 1:
        create_contact.sync_detailed(client=client, body=CreateContactBody(first_name="Py mid-sync", last_name="Client", email="mid@client.test"))
    cursor = res.headers.get("x-next-cursor")
    if not cursor:
        break
print(json.dumps({"seen": seen, "totals": totals}))
`;

describe("a Python client generated from the description", () => {
  it("is generated without a skipped operation, and runs a sync loop that sees a contact created mid-sync once", () => {
    const generated = spawnSync(PY_CLIENT_GENERATOR_BIN, ["generate", "--path", "openapi.json", "--output-path", "damageiq", "--meta", "none"], { cwd: dir, encoding: "utf8" });
    expect(generated.status, generated.stderr + generated.stdout).toBe(0);
    // Every JSON operation is generated (only the two binary answers, the PDF and the archive, are left unparsed).
    expect(generated.stdout + generated.stderr).not.toContain("Endpoint will not be generated");

    writeFileSync(path.join(dir, "sync.py"), SYNC_LOOP);
    const python = path.join(PY_CLIENTS_VENV, "bin", "python");
    const compiled = spawnSync(python, ["-m", "compileall", "-q", "damageiq"], { cwd: dir, encoding: "utf8" });
    expect(compiled.status, compiled.stderr + compiled.stdout).toBe(0);
    const ran = spawnSync(python, ["sync.py", app.url, token], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(ran.status, ran.stderr).toBe(0);
    const { seen, totals } = JSON.parse(ran.stdout) as { seen: { id: string; firstName: string; updatedAt: string }[]; totals: number[] };
    expect(totals[0]).toBe(3);
    expect(seen.map((c) => c.firstName)).toEqual(["Py 0", "Py 1", "Py 2", "Py mid-sync"]);
    expect(new Set(seen.map((c) => c.id)).size).toBe(4);
  }, 120_000);
});
