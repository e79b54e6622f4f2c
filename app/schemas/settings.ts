import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { currentPasswordField } from "./auth";
import { blankWithin } from "./blank";
import { CONTACT_LIMITS, contactSchema } from "./contact";

/** An optional profile field: absent keeps what is stored (undefined), blank clears it (null). */
const clearable = <T extends z.ZodTypeAny>(field: T, max: number) =>
  z.preprocess((v) => (typeof v === "string" && blankWithin(max)(v) === undefined ? null : v), field.nullable());

/**
 * Settings → Profile and `PUT /api/auth/user`: first name, last name and email as for a contact;
 * phone, company and address optional (every account, vendors' address shows in the vendor
 * selector); the current password, needed only to change the email (the address notices and the
 * login notification go to). Anything else (role, username…) is dropped.
 */
export const profileSchema = contactSchema.pick({ firstName: true, lastName: true, email: true }).extend({
  phone: clearable(contactSchema.shape.phone, CONTACT_LIMITS.phone),
  companyName: clearable(contactSchema.shape.companyName, CONTACT_LIMITS.companyName),
  address: clearable(contactSchema.shape.address, CONTACT_LIMITS.address),
  currentPassword: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.string({ invalid_type_error: "Current password is required" }).max(200, "Password must be at most 200 characters").optional(),
  ),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const SESSION_TIMEOUT_CHOICES = [
  { value: "1h", label: "1 hour" },
  { value: "1d", label: "1 day" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
] as const;
export const THEME_CHOICES = [
  { value: "dark", label: "Dark" },
  { value: "light", label: "Light" },
  { value: "auto", label: "Auto" },
] as const;
export const LANGUAGE_CHOICES = [
  { value: "en", label: "English" },
  { value: "es", label: "Español" },
  { value: "fr", label: "Français" },
] as const;

const choice = <T extends readonly { value: string }[]>(choices: T, message: string) =>
  z.enum(choices.map((c) => c.value) as [T[number]["value"], ...T[number]["value"][]], { errorMap: () => ({ message }) });

/** A switch: a form posts "on" (or nothing when off), JSON a boolean. */
const switchField = z.preprocess(
  (v) => (v === "on" || v === "true" ? true : v === undefined || v === "" || v === "false" ? false : v),
  z.boolean({ invalid_type_error: "Must be true or false" }),
);

export const securitySchema = z.object({
  sessionTimeout: choice(SESSION_TIMEOUT_CHOICES, "Session timeout must be 1h, 1d, 7d or 30d"),
  loginNotifications: switchField,
});
export type SecurityInput = z.infer<typeof securitySchema>;

export const appearanceSchema = z.object({
  theme: choice(THEME_CHOICES, "Theme must be dark, light or auto"),
  language: choice(LANGUAGE_CHOICES, "Language must be en, es or fr"),
});
export type AppearanceInput = z.infer<typeof appearanceSchema>;

/** The account's default vendor for pricing; blank (or null) clears it. */
export const defaultVendorSchema = z.object({
  defaultVendorId: z.preprocess(
    (v) => (v === "" || v === null ? null : v),
    z
      .string({ invalid_type_error: "Vendor must be a vendor id" })
      .regex(/^[a-f0-9]{24}$/i, "Vendor must be a vendor id")
      .nullable()
      .default(null),
  ),
});

export const ESTIMATE_LINK_DAYS_MESSAGE = "Link expiry must be a whole number of days from 1 to 365";
/** Settings → Security → Customer estimate links: how many days a new link stays open (default 30). */
export const estimateLinkSettingsSchema = z.object({
  estimateLinkDays: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ required_error: ESTIMATE_LINK_DAYS_MESSAGE, invalid_type_error: ESTIMATE_LINK_DAYS_MESSAGE })
      .int(ESTIMATE_LINK_DAYS_MESSAGE)
      .min(1, ESTIMATE_LINK_DAYS_MESSAGE)
      .max(365, ESTIMATE_LINK_DAYS_MESSAGE),
  ),
});

/**
 * `PUT /api/auth/preferences`: any of the Security and Appearance choices, the default vendor and the
 * estimate links' expiry; only the fields sent change.
 */
export const preferencesSchema = securitySchema
  .merge(appearanceSchema)
  .merge(defaultVendorSchema)
  .merge(estimateLinkSettingsSchema)
  .partial()
  .strict("Unknown field: writable fields are sessionTimeout, loginNotifications, theme, language, defaultVendorId, estimateLinkDays")
  .refine((v) => Object.keys(v).length > 0, "Send at least one of sessionTimeout, loginNotifications, theme, language, defaultVendorId, estimateLinkDays");
export type PreferencesInput = z.infer<typeof preferencesSchema>;

/** A code from the authenticator app (enrolment, turning it off). */
export const twoFactorCodeSchema = z.object({
  code: z
    .string({ required_error: "Verification code is required", invalid_type_error: "Verification code is required" })
    .max(40, "Invalid verification code")
    .trim()
    .min(1, "Verification code is required"),
});

/** Turning two-factor on: a code from the app and the account's current password (re-authentication). */
export const twoFactorConfirmSchema = twoFactorCodeSchema.extend({ currentPassword: currentPasswordField });

export const profileValidator = withZod(profileSchema);
export const securityValidator = withZod(securitySchema);
export const appearanceValidator = withZod(appearanceSchema);
export const defaultVendorValidator = withZod(defaultVendorSchema);
export const estimateLinkSettingsValidator = withZod(estimateLinkSettingsSchema);
export const twoFactorCodeValidator = withZod(twoFactorCodeSchema);
export const twoFactorConfirmValidator = withZod(twoFactorConfirmSchema);
