import { retimeUserSessions, setUserSessionsAppearance } from "~/models/session.server";
import { findVendor, toPublicUser, User } from "~/models/user.server";
import type { AppearanceInput, PreferencesInput, ProfileInput, SecurityInput } from "~/schemas/settings";
import { env } from "~/utils/env.server";
import { activeProviderConfig } from "./ai-provider.server";
import { verifyCurrentPassword } from "./auth.server";
import type { Actor } from "./actor";
import { confirmEnrolment } from "./two-factor.server";
import { revokeApiTokensOf } from "~/models/api-token.server";
import { SESSION_TIMEOUTS } from "./session.server";
import { Invalid, NotFound } from "~/utils/domain-errors";
import { authorize } from "./permissions.server";

/**
 * The signed-in account's own settings (Settings screen and `PUT /api/auth/user`,
 * `PUT /api/auth/preferences`). Always the caller's own document: no id comes from the request.
 */

async function save(actor: Actor, set: Record<string, unknown>, unset: Record<string, ""> = {}) {
  const user = await User.findOneAndUpdate(
    { _id: actor.id },
    { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}) },
    { returnDocument: "after", runValidators: true },
  );
  if (!user) throw new NotFound("User not found");
  return toPublicUser(user);
}

/**
 * First and last name, email; phone, company and address are kept when absent, cleared when blank
 * (null). A new email needs the current password: it is where the account's notices go, so a stolen
 * session must not be able to move them.
 */
export async function updateProfile(actor: Actor, input: ProfileInput) {
  authorize(actor, "settings.write");
  const { phone, companyName, address, currentPassword, ...required } = input;
  if (required.email.toLowerCase() !== (actor.user.email ?? "").toLowerCase()) await verifyCurrentPassword(actor, currentPassword);
  const set: Record<string, unknown> = { ...required };
  const unset: Record<string, ""> = {};
  for (const [field, value] of Object.entries({ phone, companyName, address })) {
    if (value === null) unset[field] = "";
    else if (value !== undefined) set[field] = value;
  }
  return save(actor, set, unset);
}

/**
 * Any of the preferences. A new session timeout is applied to the account's sessions at once
 * (each ends that long after its sign-in; `currentSessionId`'s counts from now).
 */
export async function updatePreferences(actor: Actor, input: PreferencesInput, currentSessionId?: string) {
  authorize(actor, "settings.write");
  const set: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) if (value !== undefined) set[field] = value;
  if (input.defaultVendorId && !(await findVendor(input.defaultVendorId))) {
    throw new Invalid("Vendor not found", { fields: { defaultVendorId: "Vendor not found" } });
  }
  const user = await save(actor, set);
  if (input.theme || input.language) await setUserSessionsAppearance(actor.id, input);
  if (input.sessionTimeout) {
    await retimeUserSessions(actor.id, SESSION_TIMEOUTS[input.sessionTimeout], currentSessionId);
  }
  return user;
}

export const updateSecurity = (actor: Actor, input: SecurityInput, currentSessionId?: string) =>
  updatePreferences(actor, input, currentSessionId);
export const updateAppearance = (actor: Actor, input: AppearanceInput) => updatePreferences(actor, input);

/**
 * Turns two-factor on: the current password (re-authentication: a stolen session must not be able to
 * tie the account to the thief's phone) and a code from the app; answers the recovery codes and how
 * many API tokens were revoked: a token made before would get around the second factor, so every
 * one ends (they are checked against the database, so on every instance).
 */
export async function enableTwoFactor(actor: Actor, input: { code: string; currentPassword: string }) {
  authorize(actor, "credentials.own");
  await verifyCurrentPassword(actor, input.currentPassword);
  const { recoveryCodes } = await confirmEnrolment(actor.id, input.code);
  const revokedTokens = await revokeApiTokensOf({ ownerId: actor.id });
  return { recoveryCodes, revokedTokens };
}

/** Enough of a key to recognise it ("sk-…abcd"), never enough to use it. */
export function maskKey(key: string | undefined) {
  if (!key) return null;
  if (key.length < 12) return "…";
  const prefix = key.startsWith("sk-") ? "sk-" : "";
  return `${prefix}…${key.slice(-4)}`;
}

/** The Security tab's "API keys" section: the AI key in use (Admin Settings', else OPENAI_API_KEY; masked) and where media is stored. */
export async function apiKeysOverview() {
  const provider = await activeProviderConfig();
  return {
    aiKey: maskKey(provider && provider.apiKey !== "none" ? provider.apiKey : undefined),
    aiModel: provider?.model ?? env.OPENAI_MODEL,
    storage:
      env.STORAGE === "s3"
        ? { kind: "s3" as const, label: `S3 bucket ${env.S3_BUCKET}${env.S3_ENDPOINT ? ` at ${new URL(env.S3_ENDPOINT).host}` : ` (${env.S3_REGION})`}` }
        : { kind: "local" as const, label: "Local disk (DATA_DIR)" },
  };
}
