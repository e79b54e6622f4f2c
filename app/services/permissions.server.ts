import type { AccountRole } from "~/schemas/members";
import { Forbidden } from "~/utils/domain-errors";
import { accountRoleOf, personIdOf, type Actor } from "./actor";

/**
 * What each person of an account may do (issue 44, docs/decisions/0067): one table, checked by the
 * services (so screens and the API answer alike: a typed Forbidden, 403). Tenancy is separate: every
 * query is still scoped to the account's owner id; this only narrows what a member does inside it.
 * An account without members is its owner, so nothing changes for it.
 */
const ALL: readonly AccountRole[] = ["owner", "manager", "estimator", "viewer"];
const WORKERS: readonly AccountRole[] = ["owner", "manager", "estimator"];
const MANAGERS: readonly AccountRole[] = ["owner", "manager"];
const OWNER: readonly AccountRole[] = ["owner"];

export const PERMISSIONS = {
  /** Read the account's records (every list, detail, PDF, dashboard). */
  "records.read": ALL,
  /** Upload photos and video, create an assessment, run the analysis. */
  "assessments.create": WORKERS,
  /** Edit an estimate (with reasons), approve, reject, answer questions, make links. */
  "assessments.edit": WORKERS,
  /** Send an estimate by email. */
  "assessments.send": WORKERS,
  /** Delete an assessment someone else created (an estimator deletes only their own). */
  "assessments.delete": MANAGERS,
  /** Add and edit customers. */
  "contacts.write": WORKERS,
  "contacts.delete": MANAGERS,
  /** Service packages, email templates, a vendor's pricing rules and packages. */
  "catalogue.write": MANAGERS,
  /** The account's settings: profile, estimate settings, logo, notifications, appearance. */
  "settings.write": MANAGERS,
  /** Integrations: the mail server, webhooks, the account's data export and import. */
  "integrations.manage": OWNER,
  /** The account's people: invite, change roles, suspend, remove. */
  "members.manage": OWNER,
  /** The caller's own sign-in: password, two-factor (the owner's are the account's). */
  "credentials.own": OWNER,
  /** Personal API tokens (each acts with its person's role). */
  "tokens.own": WORKERS,
} as const satisfies Record<string, readonly AccountRole[]>;

export type Operation = keyof typeof PERMISSIONS;

export const can = (actor: Actor, operation: Operation) => PERMISSIONS[operation].includes(accountRoleOf(actor));

export const FORBIDDEN_FOR_ROLE = "Your role in this account does not allow this";

/** Throws Forbidden (403) unless the caller's role in the account admits `operation`. */
export function authorize(actor: Actor, operation: Operation) {
  if (!can(actor, operation)) throw new Forbidden(FORBIDDEN_FOR_ROLE);
}

/** `operation` on someone's work: admitted by the table, or done to the caller's own (`createdBy`) by a role that may create it. */
export function authorizeOwnWork(actor: Actor, operation: Operation, createdBy: unknown) {
  if (can(actor, operation)) return;
  if (!can(actor, "assessments.create") || !createdBy || String(createdBy) !== personIdOf(actor)) throw new Forbidden(FORBIDDEN_FOR_ROLE);
}

/** Every operation the caller may do (the screens hide what is not in it). */
const isOperation = (op: string): op is Operation => Object.hasOwn(PERMISSIONS, op);
export const allowedOperations = (actor: Actor) => Object.keys(PERMISSIONS).filter(isOperation).filter((op) => can(actor, op));
