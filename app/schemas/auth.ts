import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { blankWithin } from "./blank";
import { emailField, optionalText, passwordField, requiredText, usernameField } from "./fields";
import { TOKEN_LIFETIMES } from "./token-lifetimes";

export { TOKEN_LIFETIMES };


export const loginSchema = z.object({
  username: requiredText("Username is required", 100),
  password: z
    .string({ required_error: "Password is required", invalid_type_error: "Password is required" })
    .min(1, "Password is required")
    .max(200, "Password must be at most 200 characters"),
  /** The second step for an account with two-factor on (the API sends it with the password). */
  totp: z.preprocess(blankWithin(40), z.string().max(40, "Invalid verification code").optional()),
});

/** The login screen's second step: a code from the authenticator app or a recovery code. */
export const totpCodeSchema = z.object({
  code: z
    .string({ required_error: "Verification code is required", invalid_type_error: "Verification code is required" })
    .max(40, "Invalid verification code")
    .trim()
    .min(1, "Verification code is required"),
});

const person = {
  email: emailField(),
  firstName: requiredText("First name is required", 100),
  lastName: requiredText("Last name is required", 100),
};

/** The registration schema; the admin set-up form uses it. */
export const registrationSchema = z.object({
  username: usernameField,
  password: passwordField(8),
  ...person,
});

/** The account's current password, asked again before a sensitive change (re-authentication). */
export const currentPasswordField = z
  .string({
    required_error: "Current password is required",
    invalid_type_error: "Current password is required",
  })
  .min(1, "Current password is required")
  .max(200, "Password must be at most 200 characters");

export const changeCredentialsSchema = z.object({
  currentPassword: currentPasswordField,
  newUsername: z.preprocess(blankWithin(50), usernameField.optional()),
  newPassword: z.preprocess(blankWithin(200), passwordField(8).optional()),
});

export const changeCredentialsFormSchema = changeCredentialsSchema
  .extend({ confirmPassword: z.preprocess(blankWithin(), z.string().optional()) })
  .refine((v) => !v.newPassword || v.newPassword === v.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });

/**
 * Settings → Security → Change Password and `PUT /api/auth/password` (every role): the spec's rules
 * of the credential change — 8+ characters, the confirmation must match.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: currentPasswordField,
    newPassword: passwordField(8),
    confirmPassword: z.string({ invalid_type_error: "Passwords don't match" }).optional(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const creatableRole = z.enum(["dealer", "vendor"], {
  errorMap: () => ({ message: "Please select a role" }),
});

/** Admin Settings → Users: 8-character passwords, role defaults to dealer. */
export const createUserSchema = z.object({
  username: usernameField,
  password: passwordField(8),
  ...person,
  role: z.preprocess(blankWithin(), creatableRole.default("dealer")),
  companyName: optionalText(100, "Company name"),
  phone: optionalText(40, "Phone"),
});

/** User Management: 6-character passwords, role must be chosen. */
export const createManagedUserSchema = z.object({
  username: usernameField,
  password: passwordField(6),
  ...person,
  role: z.preprocess(blankWithin(), creatableRole),
  companyName: optionalText(100, "Company name"),
  phone: optionalText(40, "Phone"),
});

export const switchRoleSchema = z.object({
  targetRole: z.enum(["admin", "dealer", "vendor"], {
    errorMap: () => ({ message: "Role must be admin, dealer or vendor" }),
  }),
});

export const apiTokenSchema = z.object({
  name: requiredText("Token name is required", 100),
  expiresInDays: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? undefined : typeof v === "string" ? Number(v) : v),
    z
      .number({ invalid_type_error: "Expiry must be 30, 90 or 365 days" })
      .refine((n) => (TOKEN_LIFETIMES as readonly number[]).includes(n), "Expiry must be 30, 90 or 365 days")
      .optional(),
  ),
});

export const loginValidator = withZod(loginSchema);
export const registrationValidator = withZod(registrationSchema);
export const changeCredentialsValidator = withZod(changeCredentialsFormSchema);
export const changePasswordValidator = withZod(changePasswordSchema);
export const createUserValidator = withZod(createUserSchema);
export const createManagedUserValidator = withZod(createManagedUserSchema);
export const switchRoleValidator = withZod(switchRoleSchema);
export const apiTokenValidator = withZod(apiTokenSchema);
export const totpCodeValidator = withZod(totpCodeSchema);
