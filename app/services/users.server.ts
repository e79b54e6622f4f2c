import mongoose from "mongoose";
import { removeImportKeysOf } from "~/models/account-data.server";
import { removeImportRunsOf } from "~/models/import-run.server";
import { deleteApiTokensOf, revokeApiTokensOf } from "~/models/api-token.server";
import { deleteMembersOf } from "~/models/member.server";
import { removeAssessmentsOf } from "~/models/assessment.server";
import { removeIdempotencyKeysOf } from "~/models/idempotency-key.server";
import { removeCustomerApprovalsOf } from "./estimate-links.server";
import { deleteJobsOf } from "~/models/job.server";
import { removeContactsOf } from "~/models/contact.server";
import { recordDeletion, removeDeletionsOf } from "~/models/deletion.server";
import { removeLogsOf } from "~/models/email-log.server";
import { removeWebhooksOf } from "~/models/webhook.server";
import { removeTemplatesOf } from "~/models/email-template.server";
import { removePackagesOf } from "~/models/package.server";
import { learningRecords } from "~/models/learning-record.server";
import { pricingRules } from "~/models/pricing-rule.server";
import { vendorPackages } from "~/models/vendor-package.server";
import { claimLock, releaseLock } from "~/models/lock.server";
import {
  adminExists,
  listUsers as listUserRecords,
  markedDeletedBefore,
  markUserDeleted,
  User,
  usernameKey,
  toPublicUser,
} from "~/models/user.server";
import type { z } from "zod";
import type {
  ChangePasswordInput,
  changeCredentialsSchema,
  createManagedUserSchema,
  createUserSchema,
  registrationSchema,
} from "~/schemas/auth";
import { endAllSessions, forbidden, hashPassword, startSession, verifyCurrentPassword } from "./auth.server";
import type { Actor } from "./actor";
import { commitSession, getSession, type Toast } from "./session.server";
import { discardUploadsOf } from "./account-archive.server";
import { deleteUploadsOf } from "./storage/draft.server";
import { Conflict, Forbidden, Invalid, NotFound } from "~/utils/domain-errors";
import type { WholeListQuery } from "~/schemas/list-query";
import { errorCode } from "~/utils/db-errors.server";
import { env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { authorize } from "./permissions.server";

const ADMIN_SETUP_LOCK = "admin-setup";

const isDuplicateKey = (error: unknown) => errorCode(error) === 11000;
const usernameTaken = () => new Conflict("Username already exists", { fields: { username: "Username already exists" } });

export const checkSetup = async () => ({ adminExists: await adminExists() });

/** First-run set-up: creates the one admin; 409 once any admin exists (atomic under concurrency). */
export async function createAdminAccount(input: z.infer<typeof registrationSchema>) {
  const alreadySetUp = () => new Conflict("Admin account already exists");
  if (await adminExists()) throw alreadySetUp();
  if (!(await claimLock(ADMIN_SETUP_LOCK))) throw alreadySetUp();
  try {
    const user = await User.create({
      ...input,
      usernameKey: usernameKey(input.username),
      passwordHash: await hashPassword(input.password),
      role: "admin",
    });
    return toPublicUser(user);
  } catch (error) {
    // The set-up did not happen: let it be tried again.
    await releaseLock(ADMIN_SETUP_LOCK);
    if (isDuplicateKey(error)) throw usernameTaken();
    throw error;
  }
}

type NewUser = z.infer<typeof createUserSchema> | z.infer<typeof createManagedUserSchema>;

/** Admin creates a dealer or vendor account (the schemas admit no other role). */
export async function createUser(actor: Actor, input: NewUser, request: Request) {
  if (actor.role !== "admin") throw forbidden(request);
  try {
    const user = await User.create({
      username: input.username,
      usernameKey: usernameKey(input.username),
      passwordHash: await hashPassword(input.password),
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      companyName: input.companyName,
      phone: input.phone,
    });
    return toPublicUser(user);
  } catch (error) {
    if (isDuplicateKey(error)) throw usernameTaken();
    throw error;
  }
}

export async function listUsers(actor: Actor, request: Request, { updatedSince }: WholeListQuery = {}) {
  if (actor.role !== "admin") throw forbidden(request);
  return (await listUserRecords({ since: updatedSince })).map(toPublicUser);
}

export async function getUserForAdmin(actor: Actor, id: string, request: Request) {
  if (actor.role !== "admin") throw forbidden(request);
  const user = mongoose.isValidObjectId(id) ? await User.findById(id) : null;
  if (!user) throw new NotFound("User not found");
  return toPublicUser(user);
}

/**
 * Deletes an account with everything it owns: first the account is marked deleted (no instance
 * lets it in, and no record can be written for it from then on: define-model's owner fence), then
 * its sessions and tokens, then its assessments, contacts, email templates and logs, packages, uploads with their objects (the assessments'
 * media among them) and (a vendor's) pricing rules, vendor packages and learning records, and the
 * account last — a
 * failure part-way (storage down) leaves the account marked, deleted again by the admin or by
 * housekeeping (finishDeletions), never orphans.
 * An admin cannot delete itself.
 */
export async function deleteUser(actor: Actor, id: string, request: Request) {
  if (actor.role !== "admin") throw forbidden(request);
  if (!mongoose.isValidObjectId(id)) throw new NotFound("User not found");
  if (id === actor.id) throw new Invalid("You cannot delete your own account");
  const user = await User.findById(id);
  if (!user) throw new NotFound("User not found");
  if (!(await markUserDeleted(id))) throw new NotFound("User not found");
  // A big account's records take minutes to remove (100,000 estimates: more than five); the account
  // is already deleted for everyone, so the answer does not wait for them past ACCOUNT_PURGE_WAIT_MS.
  const purge = purgeOnce(id);
  const outcome = await Promise.race([purge, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), env.ACCOUNT_PURGE_WAIT_MS).unref())]);
  if (outcome === false) throw new NotFound("User not found");
  return { user: toPublicUser(user), dataRemoved: outcome === true };
}

export const USER_DATA_REMOVAL = "User deleted successfully; their records are still being removed";
const purging = new Map<string, Promise<boolean>>();

/** One purge of an account at a time in this process; one left running is finished here, and by housekeeping if this process dies. */
function purgeOnce(id: string) {
  let purge = purging.get(id);
  if (!purge) {
    purge = purgeAccount(id).finally(() => purging.delete(id));
    purge.catch((error: unknown) => log.error({ err: error, userId: id }, "account deletion: removing its data failed; housekeeping tries again"));
    purging.set(id, purge);
  }
  return purge;
}

/** Everything an account marked deleted owns, then the account; false when it was gone already. */
async function purgeAccount(id: string) {
  await Promise.all([endAllSessions(id), deleteApiTokensOf({ ownerId: id })]);
  await Promise.all([
    removeAssessmentsOf({ ownerId: id }),
    deleteJobsOf({ ownerId: id }),
    removeContactsOf({ ownerId: id }),
    removeTemplatesOf({ ownerId: id }),
    removeLogsOf({ ownerId: id }),
    removeWebhooksOf({ ownerId: id }),
    removePackagesOf({ ownerId: id }),
    deleteUploadsOf(id),
    removeImportKeysOf({ ownerId: id }),
    removeImportRunsOf({ ownerId: id }),
    removeIdempotencyKeysOf({ ownerId: id }),
    removeCustomerApprovalsOf(id),
    discardUploadsOf(id),
    // A vendor's pricing goes with it: nothing would price with it, and nobody could see it.
    pricingRules.removeAllOf({ vendorId: id }),
    vendorPackages.removeAllOf({ vendorId: id }),
    learningRecords.removeAllOf({ vendorId: id }),
    removeDeletionsOf({ ownerId: id }),
    // Its people go with it (their sessions no longer sign anyone in once the account is marked).
    deleteMembersOf({ ownerId: id }),
  ]);
  if ((await User.deleteOne({ _id: id })).deletedCount !== 1) return false;
  await recordDeletion("user", { _id: id });
  return true;
}

/**
 * Housekeeping: accounts marked deleted more than a minute ago whose deletion did not finish (the
 * storage was down, the instance died part-way) are removed again, with what they own.
 */
export async function finishDeletions(olderThanMs = 60_000) {
  let finished = 0;
  for (const { _id } of await markedDeletedBefore(new Date(Date.now() - olderThanMs))) {
    if (await purgeOnce(String(_id))) finished += 1;
  }
  return finished;
}

/**
 * Changes the caller's username and/or password after checking the current password.
 * A password change ends every session of the account (starting a fresh one for this caller) and
 * revokes its API tokens.
 */
export async function changeCredentials(
  actor: Actor,
  input: z.infer<typeof changeCredentialsSchema>,
  request: Request,
  toast?: (revokedTokens: number) => Toast,
) {
  const user = await verifyCurrentPassword(actor, input.currentPassword);
  if (!input.newUsername && !input.newPassword) {
    throw new Invalid("Enter a new username or a new password");
  }
  if (input.newUsername) {
    user.username = input.newUsername;
    user.usernameKey = usernameKey(input.newUsername);
  }
  if (input.newPassword) {
    user.passwordHash = await hashPassword(input.newPassword);
  }
  try {
    await user.save();
  } catch (error) {
    if (isDuplicateKey(error)) throw usernameTaken();
    throw error;
  }
  // A new password ends every way in that the old one opened: sessions and API tokens.
  const revokedTokens = input.newPassword ? await revokeApiTokensOf({ ownerId: actor.id }) : 0;
  if (!input.newPassword || actor.via !== "session") {
    if (input.newPassword) await endAllSessions(actor.id);
    return { user: toPublicUser(user), headers: undefined, revokedTokens };
  }
  await endAllSessions(actor.id);
  return { user: toPublicUser(user), headers: await startSession(request, user, toast?.(revokedTokens)), revokedTokens };
}

/** A token (which the change revokes) cannot change the password: 403, before its body is read. */
export function assertPasswordChangeAllowed(actor: Actor) {
  if (actor.via !== "session") throw new Forbidden("Changing the password needs a signed-in session, not an API token");
}

/**
 * Settings → Security → Change Password and `PUT /api/auth/password`, for every role: the current
 * password, then the new one; every other session ends and every API token is revoked, and the caller
 * gets a fresh session. From a signed-in session only: a token (which the change revokes) cannot.
 */
export async function changePassword(actor: Actor, input: ChangePasswordInput, request: Request) {
  authorize(actor, "credentials.own");
  assertPasswordChangeAllowed(actor);
  let message = "";
  const { headers } = await changeCredentials(actor, { currentPassword: input.currentPassword, newPassword: input.newPassword }, request, (revoked) => {
    const tokens = revoked === 1 ? "1 API token was" : `${revoked} API tokens were`;
    message = `Your password has been changed. Your other sessions were signed out${revoked ? ` and ${tokens} revoked` : ""}.`;
    // The next page (the screen redirects) says so; the API answers it.
    return { title: "Password Changed", message, color: "green" };
  });
  return { headers, message };
}

export function roleStatus(actor: Actor) {
  return { viewingAsRole: actor.role, isRoleSwitched: actor.role !== actor.realRole };
}

/** Admin previews the interface as another role; the real role stays in the account. */
export async function switchRole(actor: Actor, targetRole: "admin" | "dealer" | "vendor", request: Request) {
  if (actor.realRole !== "admin") throw forbidden(request);
  if (actor.via !== "session") throw new Invalid("Role preview needs a signed-in browser session");
  const session = await getSession(request);
  if (targetRole === "admin") session.unset("viewAsRole");
  else session.set("viewAsRole", targetRole);
  const message = targetRole === "admin" ? "Switched back to admin view" : `Now viewing as ${targetRole}`;
  // The page reloads after a switch; the toast is shown there.
  session.flash("toast", { title: "Role Switched", message, color: "blue" });
  return { message, headers: { "Set-Cookie": await commitSession(session) } };
}
