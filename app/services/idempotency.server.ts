import { createHash } from "node:crypto";
import {
  completeClaim,
  deleteExpiredClaims,
  dropStaleClaim,
  findClaim,
  insertClaim,
  releaseClaim,
  type IdempotencyKeyRecord,
} from "~/models/idempotency-key.server";
import { idempotencyKeySchema } from "~/schemas/email";
import { dbNow, dbNowMs } from "~/utils/db-clock.server";
import type { Actor } from "./actor";
import { Conflict, Invalid } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

/**
 * `Idempotency-Key` on the API's creating POSTs (docs/decisions/0017, README "JSON API"). The key is
 * claimed by an insert before the request runs, so of two requests sent at once only one creates;
 * the other waits for the first answer. A successful (2xx) answer is kept and replayed for 24 hours
 * to the same account, same operation and same body; an error answer releases the key, so the
 * client may retry with it.
 */

/** How long a key answers again (Stripe's and the IETF draft's usual day). */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A claim still pending this long belongs to a request that died: it may be taken over. */
const ABANDONED_AFTER_MS = 60 * 1000;
/** How long a twin request waits for the first one's answer before answering 409. */
const WAIT_FOR_FIRST_MS = 5 * 1000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type IdempotencyOutcome =
  | { kind: "claimed"; claim: IdempotencyKeyRecord }
  | { kind: "replay"; status: number; contentType: string; answer: string };

export const inProgress = () =>
  new Conflict("A request with this Idempotency-Key is still in progress; retry shortly", { retryAfterSeconds: 1 });
export const keyReused = () =>
  new Conflict("This Idempotency-Key was already used with a different request", {
    fields: { "Idempotency-Key": "This Idempotency-Key was already used with a different request" },
  });

/**
 * Claims (owner, key) for this operation and body, or answers what the first request with the key
 * answered. Throws 409 for the key used with another operation or body, or still running after the wait.
 */
export async function claimIdempotencyKey(input: { ownerId: string; key: string; operation: string; bodyHash: string }): Promise<IdempotencyOutcome> {
  const giveUpAt = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = await insertClaim({ ...input, createdAt: dbNow() });
    if (claim) return { kind: "claimed", claim };
    const first = await findClaim(input);
    if (!first) continue; // released or expired meanwhile: claim again
    const age = dbNowMs() - first.createdAt.getTime();
    if (age > KEY_LIFETIME_MS || (first.state === "pending" && age > ABANDONED_AFTER_MS)) {
      await dropStaleClaim(first._id, first.state);
      continue;
    }
    if (first.operation !== input.operation || first.bodyHash !== input.bodyHash) throw keyReused();
    if (first.state === "done") {
      return { kind: "replay", status: first.status ?? 200, contentType: first.contentType ?? "application/json", answer: first.answer ?? "" };
    }
    if (Date.now() >= giveUpAt) throw inProgress();
    await sleep(POLL_MS);
  }
}

/** Housekeeping: keys past their day. */
export async function sweepExpiredIdempotencyKeys() {
  return deleteExpiredClaims(new Date(dbNowMs() - KEY_LIFETIME_MS));
}

/**
 * The API routes' wrapper around a creating POST: without the header it just runs; with a
 * malformed one it answers 400; else the first answer for this key is created once and replayed
 * with `Idempotent-Replayed: true`.
 */
export async function idempotentPost(actor: Actor, request: Request, run: () => Promise<Response>): Promise<Response> {
  const header = request.headers.get("Idempotency-Key");
  if (header === null) return run();
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Idempotency-Key is not valid";
    throw new Invalid(message, { fields: { "Idempotency-Key": message } });
  }
  const body = await request.clone().text();
  const outcome = await claimIdempotencyKey({
    ownerId: actor.id,
    key: parsed.data,
    operation: `POST ${new URL(request.url).pathname}`,
    bodyHash: createHash("sha256").update(body).digest("hex"),
  });
  if (outcome.kind === "replay") {
    return new Response(outcome.answer, {
      status: outcome.status,
      headers: { "Content-Type": outcome.contentType, "Idempotent-Replayed": "true" },
    });
  }
  const { claim } = outcome;
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    await releaseClaim(claim._id).catch(() => undefined);
    throw error;
  }
  if (!response.ok) {
    await releaseClaim(claim._id);
    return response;
  }
  // The record exists: the client is told so even if keeping the answer fails (the claim then
  // stays pending and is taken over after ABANDONED_AFTER_MS).
  await completeClaim(claim._id, {
    status: response.status,
    contentType: response.headers.get("Content-Type") ?? "application/json",
    answer: await response.clone().text(),
  }).catch((error: unknown) => log.error({ err: error }, "Could not keep an idempotent answer"));
  return response;
}
