import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { emailField, passwordField, requiredText, usernameField } from "./fields";

/**
 * A person's role inside an account (issue 44, docs/decisions/0067). The account's own login is its
 * owner; the people it invites are members with one of the other three. Separate from the account's
 * `role` (dealer, vendor, admin), which stays what the spec's labels name.
 */
export const ACCOUNT_ROLES = ["owner", "manager", "estimator", "viewer"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
export const MEMBER_ROLES = ["manager", "estimator", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const MEMBER_STATUSES = ["invited", "active", "suspended"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const accountRoleLabel = (role: AccountRole) => role[0].toUpperCase() + role.slice(1);

/** How long an invite link works. */
export const INVITE_DAYS = 7;
/** Members (invited or not) one account may have. */
export const MAX_MEMBERS = 100;

const memberRole = z.enum(MEMBER_ROLES, {
  errorMap: () => ({ message: "Role must be manager, estimator or viewer" }),
});

/** The owner invites a person: the invite goes to `email`. */
export const inviteSchema = z.object({
  email: emailField(),
  role: memberRole,
});

/** The owner changes a member: another role, suspended or active again. */
export const memberUpdateSchema = z
  .object({ role: memberRole.optional(), suspended: z.boolean({ invalid_type_error: "Must be true or false" }).optional() })
  .refine((v) => v.role !== undefined || v.suspended !== undefined, { message: "Send role or suspended" });

/** The invitee's own sign-in (the invite page, JavaScript on or off). */
export const acceptInviteSchema = z
  .object({
    firstName: requiredText("First name is required", 100),
    lastName: requiredText("Last name is required", 100),
    username: usernameField,
    password: passwordField(8),
    confirmPassword: z.string({ required_error: "Passwords don't match", invalid_type_error: "Passwords don't match" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });

export const isMemberRole = (role: unknown): role is MemberRole => MEMBER_ROLES.some((r) => r === role);

export const acceptInviteValidator = withZod(acceptInviteSchema);
