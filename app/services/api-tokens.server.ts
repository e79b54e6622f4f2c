import { createApiToken, deleteApiToken, listApiTokens } from "~/models/api-token.server";
import type { z } from "zod";
import type { apiTokenSchema } from "~/schemas/auth";
import type { Actor } from "./actor";
import { authorize } from "./permissions.server";
import { Conflict, Forbidden, NotFound } from "~/utils/domain-errors";
import type { WholeListQuery } from "~/schemas/list-query";

export interface ApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

const MAX_TOKENS = 20;

/** The caller's own tokens (never the secret: it is shown once, at creation). */
export async function listTokens(actor: Actor, { updatedSince }: WholeListQuery = {}): Promise<ApiTokenInfo[]> {
  return (await listApiTokens({ ownerId: actor.id, memberId: actor.member?.id ?? null, since: updatedSince })).map((t) => ({
    id: String(t._id),
    name: t.name,
    prefix: t.prefix,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt ? t.lastUsedAt.toISOString() : null,
    expiresAt: t.expiresAt ? t.expiresAt.toISOString() : null,
  }));
}

export async function createToken(actor: Actor, input: z.infer<typeof apiTokenSchema>) {
  // A stolen token must not be able to mint more: new tokens need the signed-in person.
  if (actor.via !== "session") throw new Forbidden("API tokens can only be created from a signed-in session");
  authorize(actor, "tokens.own");
  // A token acts with the account's real role (a member's: with its member's role); an admin previewing another role gets an admin token.
  const memberId = actor.member?.id ?? null;
  if ((await listApiTokens({ ownerId: actor.id, memberId })).length >= MAX_TOKENS) {
    throw new Conflict(`You can have at most ${MAX_TOKENS} API tokens. Revoke one first.`);
  }
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  const { token, record } = await createApiToken({ ownerId: actor.id, memberId, name: input.name, expiresAt });
  return {
    token,
    id: String(record._id),
    name: record.name,
    createdAt: record.createdAt.toISOString(),
    expiresAt: expiresAt ? expiresAt.toISOString() : null,
  };
}

export async function revokeToken(actor: Actor, id: string) {
  if (!(await deleteApiToken({ ownerId: actor.id, memberId: actor.member?.id ?? null, id }))) throw new NotFound("API token not found");
}
