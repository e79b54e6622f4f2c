import { readFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { User } from "~/models/user.server";
import { freePort } from "~/utils/embedded-db.server";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, startApp, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type TestSmtpServer } from "../../tests/smtp-server";
import { startSignedInApp } from "../../tests/signed-in-app";

// SSRF through the account's mail server (issue 23, item 6): Settings → Email must not make the app
// connect to its own network (loopback, private, link-local/metadata …) unless the operator allows it
// (OUTBOUND_ALLOW), and Test Connection says connected or not without what the other side said.

type Client = ReturnType<typeof client>;

/** A TCP server that is not a mail server: it answers every connection with a banner, and counts them. */
async function bannerServer(banner: string) {
  const server = net.createServer((socket) => {
    state.connections += 1;
    socket.on("error", () => undefined);
    socket.end(banner);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const state = {
    port: (server.address() as net.AddressInfo).port,
    connections: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return state;
}

const REFUSED = (host: string) => `${host} is on a private or local network, which this server does not connect to`;

describe("without OUTBOUND_ALLOW (the default)", () => {
  let app: RunningApp;
  let dealer: Client;
  let cookie: string;
  let dealerId: string;
  let listener: Awaited<ReturnType<typeof bannerServer>>;
  beforeAll(async () => {
    ({ app, dealerId, cookie, dealer } = await startSignedInApp());
    listener = await bannerServer("220 internal-relay ESMTP secret-banner\r\n");
  });
  afterAll(async () => {
    await app?.stop();
    await listener?.close();
  });

  it.each(["127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "::1", "10.0.0.5", "192.168.1.10", "169.254.169.254", "100.100.100.200", "fd00:ec2::254", "0.0.0.0"])(
    "PUT /api/email/settings refuses host %s with a 400 on the field, and stores nothing",
    async (host) => {
      const res = await dealer.put("/api/email/settings", { host, port: listener.port }, { Origin: app.url });
      expect(res.status).toBe(400);
      expect(res.json.errors.host).toBe(REFUSED(host));
      expect((await dealer.get("/api/email/settings")).json.host).toBe("");
    },
  );

  it("Settings → Email refuses it on the field too", async () => {
    const res = await fetch(`${app.url}/settings?tab=email`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "save-mail-server", host: "169.254.169.254", port: "80" }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(REFUSED("169.254.169.254"));
    expect((await dealer.get("/api/email/settings")).json.host).toBe("");
  });

  it("a name that resolves to a private address by the time of the connection is refused there: no test, no delivery, no connection", async () => {
    // As if saved while the name resolved elsewhere (DNS rebinding), or before the rule existed.
    for (const host of ["127.0.0.1", "localhost"]) {
      await User.updateOne({ _id: dealerId }, { $set: { mailServer: { host, port: listener.port, secure: false } } });
      const test = await dealer.get("/api/email/test");
      expect(test.json).toEqual({ connected: false, via: "account", reason: REFUSED(host) });
    }

    const contact = await dealer.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane@example.com" }, { Origin: app.url });
    const assessment = await Assessment.create({ ownerId: dealerId, title: "Silver Camry", status: "reviewed", estimatedCost: 100 });
    const sent = await dealer.post(`/api/assessments/${String(assessment._id)}/send-email`, { contactId: contact.json.id }, { Origin: app.url });
    expect(sent.status).toBe(202);
    let log = sent.json;
    for (const deadline = Date.now() + 15_000; log.status === "pending" && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      log = (await dealer.get(`/api/email-logs/${sent.json.id}`)).json;
    }
    expect(log.status).toBe("failed");
    expect(log.attempts).toHaveLength(1); // not retried: the rule will say the same next time
    expect(log.lastError).toBe(REFUSED("localhost"));
    expect(listener.connections).toBe(0);
  });
});

describe("the local mail drop (no mail server anywhere)", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ env: { MAIL_FROM: "DamageIQ <estimates@operator.example>" } });
  });
  afterAll(() => app?.stop());

  it("keeps messages From the operator's MAIL_FROM with the account's address in Reply-To", async () => {
    const user = await createTestUser({ role: "dealer" });
    const dealer = client(app, { cookie: await signIn(app, user.username, user.password) });
    await dealer.put("/api/email/settings", { from: "ceo@bank.example" }, { Origin: app.url });
    const contact = await dealer.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: "jane@example.com" }, { Origin: app.url });
    const assessment = await Assessment.create({ ownerId: user.id, title: "Blue Civic", status: "reviewed", estimatedCost: 100 });
    const sent = await dealer.post(`/api/assessments/${String(assessment._id)}/send-email`, { contactId: contact.json.id }, { Origin: app.url });
    expect(sent.status).toBe(202);
    const file = path.join(app.dataDir, "objects", "outbox", user.id, `${sent.json.id}.eml`);
    const raw = await vi.waitFor(() => readFile(file), { timeout: 15_000, interval: 100 });
    const mail = await simpleParser(raw);
    expect(mail.from?.value.map((a) => a.address)).toEqual(["estimates@operator.example"]);
    expect(mail.replyTo?.value.map((a) => a.address)).toEqual(["ceo@bank.example"]);
  });
});

describe("with OUTBOUND_ALLOW=loopback", () => {
  let app: RunningApp;
  let dealer: Client;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    ({ app, dealer } = await startSignedInApp({ env: { ...ALLOW_LOCAL_MAIL_SERVERS } }));
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  const testAt = async (port: number) => {
    const saved = await dealer.put("/api/email/settings", { host: "127.0.0.1", port }, { Origin: app.url });
    expect(saved.status).toBe(200);
    return (await dealer.get("/api/email/test")).json as { connected: boolean; reason?: string; via: string };
  };

  it("connects to an allowed mail server", async () => {
    expect(await testAt(smtp.port)).toEqual({ connected: true, via: "account" });
  });

  it("tells a closed port, an open one that is not a mail server and a refusing one apart by nothing, and never echoes them", async () => {
    const ssh = await bannerServer("SSH-2.0-OpenSSH_9.6 secret-banner\r\n");
    const refusing = await bannerServer("554 internal.corp secret-banner no service\r\n");
    const closed = await freePort();
    try {
      for (const port of [ssh.port, refusing.port, closed]) {
        const answer = await testAt(port);
        expect(answer).toEqual({ connected: false, via: "account", reason: `Could not connect to a mail server at 127.0.0.1:${port}` });
        expect(JSON.stringify(answer)).not.toMatch(/secret-banner|SSH|554|ECONNREFUSED/);
      }
      expect(ssh.connections + refusing.connections).toBe(2);
    } finally {
      await ssh.close();
      await refusing.close();
    }
  });
});
