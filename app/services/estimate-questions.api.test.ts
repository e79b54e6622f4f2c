import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Assessment } from "~/models/assessment.server";
import { EmailLog } from "~/models/email-log.server";
import { EstimateQuestion } from "~/models/estimate-question.server";
import { WebhookEvent } from "~/models/webhook.server";
import { ANSWER_REQUIRED } from "~/schemas/customer-approval";
import { client, createTestUser, signIn } from "../../tests/accounts";
import { ALLOW_LOCAL_MAIL_SERVERS, type RunningApp } from "../../tests/app-server";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../../tests/smtp-server";
import { startTenancyApp } from "../../tests/signed-in-app";
import { startReceiver, type TestReceiver } from "../../tests/webhook-receiver";

// Conversations are records (issue 40 item 4, docs/decisions/0058), over HTTP against the built app
// and the real database: a customer's question on the estimate page is stored before the dealer's
// notice goes out (a mail server that refuses loses nothing), the notice's Reply-To is the customer,
// the dealer reads and answers the thread on the estimate (a plain form post and the API), the
// answer reaches the customer by email with their page's link and shows on that page, the dashboard
// counts the unanswered, another account gets 404, and the webhook event is recorded.

type Client = ReturnType<typeof client>;
let app: RunningApp;
let smtp: TestSmtpServer;
let receiver: TestReceiver;
let dealerA: Client;
let dealerB: Client;
let aId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  ({ app, dealerA, dealerB, aId } = await startTenancyApp({
    env: {
      ...ALLOW_LOCAL_MAIL_SERVERS,
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      MAIL_FROM: "DamageIQ <estimates@example.com>",
      TRUST_PROXY: "1",
    },
  }));
});
afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await receiver?.close();
});

let ipCounter = 0;
/** A customer on a phone, at an address of its own; no script: plain GETs and form posts. */
function customer() {
  const ip = `203.0.113.${++ipCounter}`;
  const call = async (method: string, path: string, body?: Record<string, string>) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        "X-Forwarded-For": ip,
        "User-Agent": "TestPhone",
        ...(body ? { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url } : {}),
      },
      body: body ? new URLSearchParams(body).toString() : undefined,
    });
    return { status: res.status, text: await res.text() };
  };
  return { get: (path: string) => call("GET", path), post: (path: string, body: Record<string, string>) => call("POST", path, body) };
}

/** A sent estimate of account A with its customer (a contact with an address), and an API-made link to it. */
async function linkedEstimate(title: string, email = `pat.${Math.random().toString(36).slice(2, 8)}@example.com`) {
  const contact = await dealerA.post("/api/contacts", { firstName: "Pat", lastName: "Lee", email });
  expect(contact.status).toBe(201);
  const doc = await Assessment.create({
    ownerId: aId,
    title,
    contactId: contact.json.id,
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 300,
    damages: [{ damageType: "dent", location: "left", severity: "minor", description: "Door ding", confidence: 0.9 }],
    damageCategories: ["dent"],
  });
  const id = String(doc._id);
  const link = await dealerA.post(`/api/assessments/${id}/links`);
  expect(link.status, link.text).toBe(201);
  return { id, token: link.json.token as string, email };
}

async function ask(token: string, fields: Record<string, string>) {
  const res = await customer().post(`/e/${token}`, { intent: "question", ...fields });
  expect(res.status, res.text.slice(0, 500)).toBe(303);
}

async function mailWith(match: (m: ReceivedMail) => boolean) {
  return vi.waitFor(
    () => {
      const found = smtp.received.find(match);
      expect(found).toBeDefined();
      return found!;
    },
    { timeout: 15_000 },
  );
}

/** A form post to a screen as a browser without script sends it (session cookie, same origin). */
async function screenPost(cookie: string, path: string, fields: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

async function signedInDealer() {
  const user = await createTestUser({ role: "dealer" });
  const cookie = await signIn(app, user.username, user.password);
  return { id: user.id, cookie, api: client(app, { cookie }) };
}

describe("a question is a record", () => {
  it("is stored on the estimate even when the mail server refuses the dealer's notice", async () => {
    const { id, token } = await linkedEstimate("Refused Notice Civic");
    smtp.onMessage = (mail) => {
      if (mail.parsed.subject?.startsWith("Question about your estimate")) throw Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
    };
    try {
      await ask(token, { message: "Is the bumper included?" });
      const log = await vi.waitFor(
        async () => {
          const found = await EmailLog.findOne({ ownerId: aId, subject: "Question about your estimate: Refused Notice Civic" }).lean();
          expect(found?.status).toBe("failed");
          return found!;
        },
        { timeout: 15_000 },
      );
      expect(log.lastError).toMatch(/550|Mailbox unavailable/);
    } finally {
      smtp.onMessage = undefined;
    }
    const stored = await EstimateQuestion.find({ assessmentId: id }).lean();
    expect(stored).toEqual([expect.objectContaining({ message: "Is the bumper included?", version: 1, answeredAt: null })]);
    expect(String(stored[0].ownerId)).toBe(aId);
    const listed = await dealerA.get(`/api/assessments/${id}/questions`);
    expect(listed.status).toBe(200);
    expect(listed.json.questions).toEqual([
      expect.objectContaining({ message: "Is the bumper included?", versionLabel: "Original", answered: false, answers: [], customer: expect.objectContaining({ firstName: "Pat", lastName: "Lee" }) }),
    ]);
  });

  it("the notice's Reply-To is the customer: the address they typed, else the link's customer; never the dealer's own", async () => {
    const { token, email } = await linkedEstimate("Reply To Corolla");
    await ask(token, { message: "Can I bring it Monday?", replyEmail: "typed.by.customer@example.com" });
    const typed = await mailWith((m) => m.parsed.subject === "Question about your estimate: Reply To Corolla" && m.parsed.text?.includes("Monday") === true);
    expect(typed.parsed.replyTo?.value.map((a) => a.address)).toEqual(["typed.by.customer@example.com"]);

    await ask(token, { message: "And what about Tuesday?" });
    const onFile = await mailWith((m) => m.parsed.subject === "Question about your estimate: Reply To Corolla" && m.parsed.text?.includes("Tuesday") === true);
    expect(onFile.parsed.replyTo?.value.map((a) => a.address)).toEqual([email]);
    const dealerEmail = (await dealerA.get("/api/auth/user")).json.email as string;
    expect([typed, onFile].flatMap((m) => m.parsed.replyTo?.value.map((a) => a.address) ?? [])).not.toContain(dealerEmail);
  });

  it("records the estimate.question_asked webhook event with the question", async () => {
    const hook = await dealerA.post("/api/webhooks", { url: receiver.url("/questions"), events: ["estimate.question_asked"] });
    expect(hook.status, hook.text).toBe(201);
    const { id, token } = await linkedEstimate("Webhook Accord");
    await ask(token, { message: "Do you do loaner cars?", replyEmail: "loaner@example.com" });
    const question = await EstimateQuestion.findOne({ assessmentId: id }).lean();
    const event = await WebhookEvent.findOne({ ownerId: aId, type: "estimate.question_asked", key: `estimate.question_asked:${String(question!._id)}` }).lean<{ data: Record<string, unknown> }>();
    expect(event?.data).toMatchObject({ id, title: "Webhook Accord", questionId: String(question!._id), message: "Do you do loaner cars?", replyEmail: "loaner@example.com", versionLabel: "Original" });
    const delivered = await vi.waitFor(
      () => {
        const found = receiver.on("/questions").find((r) => r.body.includes("loaner@example.com"));
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 15_000 },
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ type: "estimate.question_asked" });
    await dealerA.del(`/api/webhooks/${hook.json.id}`);
  });
});

describe("the dealer answers", () => {
  it("records the estimate.question_answered webhook event with the question and the answer, delivered to a subscribed endpoint", async () => {
    const hook = await dealerA.post("/api/webhooks", { url: receiver.url("/answers"), events: ["estimate.question_answered"] });
    expect(hook.status, hook.text).toBe(201);
    const { id, token } = await linkedEstimate("Answered Civic");
    await ask(token, { message: "Is the wheel included?", replyEmail: "wheel@example.com" });
    const question = await EstimateQuestion.findOne({ assessmentId: id }).lean();
    const answered = await dealerA.post(`/api/assessments/${id}/questions/${String(question!._id)}/answer`, { message: "Yes, the wheel too." });
    expect(answered.status, answered.text).toBe(201);
    const answerId = answered.json.answers[0].id as string;
    const event = await WebhookEvent.findOne({ ownerId: aId, type: "estimate.question_answered", key: `estimate.question_answered:${answerId}` }).lean<{ data: Record<string, unknown> }>();
    expect(event?.data).toMatchObject({
      id,
      title: "Answered Civic",
      versionLabel: "Original",
      questionId: String(question!._id),
      answerId,
      question: "Is the wheel included?",
      message: "Yes, the wheel too.",
      answerTo: "wheel@example.com",
      emailLogId: answered.json.emailLogId,
    });
    const delivered = await vi.waitFor(
      () => {
        const found = receiver.on("/answers").find((r) => r.body.includes("Yes, the wheel too."));
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 15_000 },
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ type: "estimate.question_answered", data: { answerId } });
    await dealerA.del(`/api/webhooks/${hook.json.id}`);
  });

  it("on the estimate's screen without JavaScript: the thread shows, the plain form answers, the customer gets the email and sees it on their page", async () => {
    const dealer = await signedInDealer();
    const contact = await dealer.api.post("/api/contacts", { firstName: "Sam", lastName: "Ito", email: "sam.ito@example.com" });
    const doc = await Assessment.create({ ownerId: dealer.id, title: "Screen Answer Mazda", contactId: contact.json.id, status: "sent", sentAt: new Date(), estimatedCost: 120 });
    const id = String(doc._id);
    const link = await dealer.api.post(`/api/assessments/${id}/links`);
    const token = link.json.token as string;
    await ask(token, { message: "Is the paint matched?" });

    const page = await fetch(`${app.url}/estimates?view=${id}`, { headers: { Cookie: dealer.cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Customer Questions");
    expect(html).toContain("Is the paint matched?");
    expect(html).toContain('value="answer-question"');
    const questionId = /name="questionId" value="([a-f0-9]{24})"/.exec(html)?.[1];
    expect(questionId).toBeDefined();

    // A blank answer stores nothing and comes back to the estimate.
    const blank = await screenPost(dealer.cookie, `/estimates?view=${id}`, { intent: "answer-question", id, questionId: questionId!, message: "  " });
    expect(blank.status).toBe(302);
    expect((await EstimateQuestion.findById(questionId).lean())?.answers).toEqual([]);

    const posted = await screenPost(dealer.cookie, `/estimates?view=${id}`, { intent: "answer-question", id, questionId: questionId!, message: "Yes, matched by computer." });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toContain(`view=${id}`);
    const stored = await EstimateQuestion.findById(questionId).lean();
    expect(stored?.answers).toEqual([expect.objectContaining({ message: "Yes, matched by computer.", by: expect.anything() })]);
    expect(String(stored!.answers[0].by)).toBe(dealer.id);
    expect(stored?.answeredAt).toBeInstanceOf(Date);

    const mail = await mailWith((m) => m.parsed.subject === "Answer to your question: Screen Answer Mazda");
    expect(mail.envelope.to).toEqual(["sam.ito@example.com"]);
    expect(mail.parsed.text).toContain("Yes, matched by computer.");
    expect(mail.parsed.text).toContain(`/e/${token}`);
    // In the email log, as every email the account sends.
    const log = await EmailLog.findById(stored!.answers[0].emailLogId).lean();
    expect(log).toMatchObject({ recipientEmail: "sam.ito@example.com", kind: "estimate", assessmentId: doc._id });

    const after = await (await fetch(`${app.url}/estimates?view=${id}`, { headers: { Cookie: dealer.cookie } })).text();
    expect(after).toContain("Yes, matched by computer.");
    const customerPage = await customer().get(`/e/${token}`);
    expect(customerPage.text).toContain("Your questions");
    expect(customerPage.text).toContain("Is the paint matched?");
    expect(customerPage.text).toContain("Yes, matched by computer.");
  });

  it("through the API: 400 naming the field, 201 with the answer and its email; the answer goes to the address the customer typed", async () => {
    const { id, token } = await linkedEstimate("Api Answer Golf");
    await ask(token, { message: "How long will it take?", replyEmail: "api.customer@example.com" });
    const [question] = (await dealerA.get(`/api/assessments/${id}/questions`)).json.questions as { id: string }[];
    const path = `/api/assessments/${id}/questions/${question.id}/answer`;
    const blank = await dealerA.post(path, { message: " " });
    expect(blank.status).toBe(400);
    expect(blank.json.errors).toEqual({ message: ANSWER_REQUIRED });
    expect((await dealerA.post(path, {})).json.errors).toEqual({ message: ANSWER_REQUIRED });

    const answered = await dealerA.post(path, { message: "Two days." });
    expect(answered.status, answered.text).toBe(201);
    expect(answered.json).toMatchObject({ id: question.id, answered: true, answers: [expect.objectContaining({ message: "Two days." })] });
    expect(answered.json.emailLogId).toMatch(/^[a-f0-9]{24}$/);
    const mail = await mailWith((m) => m.parsed.subject === "Answer to your question: Api Answer Golf");
    expect(mail.envelope.to).toEqual(["api.customer@example.com"]);
    expect(mail.parsed.text).toContain(`/e/${token}`);
    const logs = await dealerA.get(`/api/email-logs?q=${encodeURIComponent("Api Answer Golf")}`);
    expect(logs.status).toBe(200);
    expect(JSON.stringify(logs.json)).toContain(answered.json.emailLogId);
  });

  it("an answer retried with its Idempotency-Key is answered once: one answer, one email; another body with that key is 409", async () => {
    const { id, token } = await linkedEstimate("Retried Answer Golf");
    await ask(token, { message: "Is it covered?", replyEmail: "retry.customer@example.com" });
    const [question] = (await dealerA.get(`/api/assessments/${id}/questions`)).json.questions as { id: string }[];
    const path = `/api/assessments/${id}/questions/${question.id}/answer`;
    const key = { "Idempotency-Key": `answer-${question.id}` };
    const first = await dealerA.post(path, { message: "Yes, fully." }, key);
    expect(first.status, first.text).toBe(201);
    const again = await dealerA.post(path, { message: "Yes, fully." }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.emailLogId).toBe(first.json.emailLogId);
    expect((await dealerA.post(path, { message: "Something else." }, key)).status).toBe(409);
    expect(((await EstimateQuestion.findById(question.id).lean())?.answers ?? []).length).toBe(1);
    expect(await EmailLog.countDocuments({ ownerId: aId, subject: "Answer to your question: Retried Answer Golf" })).toBe(1);
  });

  it("another account gets 404 for the list and the answer; a question of another estimate is 404 too", async () => {
    const { id, token } = await linkedEstimate("Tenancy Jetta");
    await ask(token, { message: "Private question" });
    const [question] = (await dealerA.get(`/api/assessments/${id}/questions`)).json.questions as { id: string }[];
    expect((await dealerB.get(`/api/assessments/${id}/questions`)).status).toBe(404);
    expect((await dealerB.post(`/api/assessments/${id}/questions/${question.id}/answer`, { message: "Hi" })).status).toBe(404);
    const other = await linkedEstimate("Other Estimate");
    expect((await dealerA.post(`/api/assessments/${other.id}/questions/${question.id}/answer`, { message: "Hi" })).status).toBe(404);
    expect((await dealerA.post(`/api/assessments/${id}/questions/not-an-id/answer`, { message: "Hi" })).status).toBe(404);
    expect((await EstimateQuestion.findById(question.id).lean())?.answers).toEqual([]);
  });

  it("the dashboard's unanswered count drops once the dealer answers", async () => {
    const dealer = await signedInDealer();
    const contact = await dealer.api.post("/api/contacts", { firstName: "Kim", lastName: "Ray", email: "kim.ray@example.com" });
    const doc = await Assessment.create({ ownerId: dealer.id, title: "Count Outback", contactId: contact.json.id, status: "sent", sentAt: new Date(), estimatedCost: 50 });
    const id = String(doc._id);
    const token = (await dealer.api.post(`/api/assessments/${id}/links`)).json.token as string;
    const dashboard = async () => (await dealer.api.get("/?_data=routes%2F_app._index")).json.questions as { count: number; latest: { title: string }[] };
    expect((await dashboard()).count).toBe(0);
    await ask(token, { message: "First?" });
    await ask(token, { message: "Second?" });
    expect(await dashboard()).toMatchObject({ count: 2, latest: [expect.objectContaining({ title: "Count Outback" }), expect.objectContaining({ title: "Count Outback" })] });
    const html = await (await fetch(`${app.url}/`, { headers: { Cookie: dealer.cookie } })).text();
    expect(html).toMatch(/data-testid="unanswered-count"[^>]*>2</);

    const [first] = (await dealer.api.get(`/api/assessments/${id}/questions`)).json.questions as { id: string }[];
    expect((await dealer.api.post(`/api/assessments/${id}/questions/${first.id}/answer`, { message: "Yes." })).status).toBe(201);
    expect((await dashboard()).count).toBe(1);
    // A second answer to the same question changes nothing in the count.
    expect((await dealer.api.post(`/api/assessments/${id}/questions/${first.id}/answer`, { message: "Also yes." })).status).toBe(201);
    expect((await dashboard()).count).toBe(1);
  });
});
