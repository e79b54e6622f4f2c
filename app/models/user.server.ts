import { jsonWithout } from "~/utils/json-shape";
import { defineModel } from "./define-model.server";
import mongoose, { Schema, trusted, type Types } from "mongoose";
import { credentialCache } from "./write-cache.server";
import { changedSince, keysetSort } from "./keyset.server";

export const ROLES = ["admin", "dealer", "vendor"] as const;
export const THEMES = ["dark", "light", "auto"] as const;
export const LANGUAGES = ["en", "es", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
export type Role = (typeof ROLES)[number];

const userSchema = new Schema(
  {
    username: { type: String, required: true, trim: true },
    // Case-insensitive uniqueness without collations (the embedded engine has none).
    usernameKey: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true, select: false },
    email: { type: String, required: true, trim: true },
    firstName: { type: String, required: true, trim: true },
    lastName: { type: String, required: true, trim: true },
    role: { type: String, enum: ROLES, required: true, index: true },
    companyName: { type: String, trim: true },
    phone: { type: String, trim: true },
    address: { type: String, trim: true },
    isCustomAuth: { type: Boolean, default: true },
    sessionTimeout: { type: String, enum: ["1h", "1d", "7d", "30d"] as const, default: "7d" },
    /** An email on each new sign-in (sent by the mailer; stored here). */
    loginNotifications: { type: Boolean, default: false },
    theme: { type: String, enum: THEMES, default: "light" },
    language: { type: String, enum: LANGUAGES, default: "en" },
    /** How long a customer's estimate link (/e/{token}) stays open, in days (Settings → Security). */
    estimateLinkDays: { type: Number, min: 1, max: 365, default: 30 },
    /** The vendor the upload wizard preselects for pricing. */
    defaultVendorId: { type: Schema.Types.ObjectId, default: null },
    /** What an estimate is priced and printed with (issue 27): tax rates in percent, terms, validity, the logo's media URL. */
    estimateSettings: {
      type: new Schema(
        {
          taxParts: { type: Number, default: 0, min: 0, max: 100 },
          taxLabour: { type: Number, default: 0, min: 0, max: 100 },
          taxMaterials: { type: Number, default: 0, min: 0, max: 100 },
          terms: { type: String, default: "" },
          validityDays: { type: Number, default: 30, min: 1, max: 365 },
          logoUrl: { type: String },
        },
        { _id: false },
      ),
    },
    /**
     * Two-factor sign-in (TOTP). The secrets are sealed (AES-GCM, see secret-box) and never selected
     * unless asked for; recovery codes are kept as SHA-256 hashes, each removed when used.
     */
    twoFactor: {
      type: new Schema(
        {
          enabled: { type: Boolean, default: false },
          secret: { type: String, select: false },
          pendingSecret: { type: String, select: false },
          recoveryCodes: { type: [String], default: [], select: false },
          /** The last accepted code's time step: a code works once. */
          lastTimeStep: { type: Number, default: 0 },
        },
        { _id: false },
      ),
      default: () => ({}),
    },
    /**
     * Settings → Email: the account's own outgoing mail server (unset: the SMTP_* environment, else
     * the local mail drop). The password is AES-GCM ciphertext (app/services/mail-config.server.ts).
     */
    mailServer: {
      type: new Schema(
        {
          host: { type: String, trim: true },
          port: { type: Number, default: 587 },
          secure: { type: Boolean, default: false },
          user: { type: String, trim: true },
          passwordEnc: { type: String },
          from: { type: String, trim: true },
        },
        { _id: false },
      ),
      select: false,
    },
    /** Settings → Notifications: what the mailer sends the account itself; desktop and sound are the browser's. */
    notifications: {
      type: new Schema(
        {
          assessmentCompleted: { type: Boolean, default: true },
          deliveryStatus: { type: Boolean, default: true },
          systemAlerts: { type: Boolean, default: true },
          desktop: { type: Boolean, default: false },
          sound: { type: Boolean, default: false },
        },
        { _id: false },
      ),
      default: () => ({}),
    },
    /**
     * Set first when the account is deleted: from then on nothing signs in as it and no record can
     * be written for it (define-model's owner fence), while the cascade removes what it owned.
     */
    deletedAt: { type: Date },
  },
  {
    timestamps: true,
    toJSON: jsonWithout("passwordHash", "usernameKey", "twoFactor", "mailServer"),
  },
);

userSchema.plugin(credentialCache.forgetOnWrite);
export const User = defineModel("User", userSchema);

export const usernameKey = (username: string) => username.trim().toLowerCase();

export async function findUserById(id: string) {
  if (!mongoose.isValidObjectId(id)) return null;
  return User.findById(id);
}

/**
 * The user a session or API token names, through the credential cache: the document is shared by
 * concurrent requests, so treat it as read-only (write through the model functions).
 */
export function findSignedInUser(id: string) {
  return credentialCache.get(`user:${id}`, async () => (mongoose.isValidObjectId(id) ? User.findOne({ _id: id, deletedAt: null }) : null));
}

/** Accounts marked deleted before `before` and still there (their deletion did not finish). */
export async function markedDeletedBefore(before: Date) {
  return User.find({ deletedAt: trusted({ $lt: before }) }).select({ _id: 1 }).limit(100).lean<{ _id: Types.ObjectId }[]>();
}

/** Marks the account deleted (the first step of deleting it); false when there is no such account. */
export async function markUserDeleted(id: string) {
  return (await User.updateOne({ _id: id }, { $set: { deletedAt: new Date() } })).matchedCount === 1;
}

export async function findUserForLogin(username: string) {
  return User.findOne({ usernameKey: usernameKey(username) }).select("+passwordHash");
}

/** The installation's admins (notices about the installation go to them). */
export async function adminIds() {
  const admins = await User.find({ role: "admin" }).select({ _id: 1 }).limit(100).lean<{ _id: unknown }[]>();
  return admins.map((a) => String(a._id));
}

export async function adminExists() {
  return (await User.exists({ role: "admin" })) !== null;
}

/**
 * Every account's id (the owners of every other collection's documents), for the operations that go
 * account by account through indexes led by the owner: a distinct over a big collection reads all of it.
 */
export async function everyAccountId() {
  return (await User.find().select({ _id: 1 }).lean<{ _id: Types.ObjectId }[]>()).map(({ _id }) => _id);
}

/** Every account, newest first; changed since `since`, oldest change first (a sync). */
export async function listUsers({ since }: { since?: Date } = {}) {
  return User.find(changedSince(since)).sort(keysetSort(undefined, since));
}

export type PublicUser = ReturnType<typeof toPublicUser>;

/** What any response may carry about a user: never hashes or internal keys. */
export function toPublicUser(user: InstanceType<typeof User>) {
  // Typed by the schema (the toJSON transform only removes fields).
  const json = user.toJSON();
  return {
    id: String(user.id),
    username: json.username,
    email: json.email,
    firstName: json.firstName,
    lastName: json.lastName,
    role: json.role,
    companyName: json.companyName ?? null,
    phone: json.phone ?? null,
    address: json.address ?? null,
    isCustomAuth: Boolean(json.isCustomAuth),
    sessionTimeout: json.sessionTimeout ?? "7d",
    loginNotifications: Boolean(json.loginNotifications),
    twoFactorEnabled: Boolean(user.twoFactor?.enabled),
    theme: json.theme ?? "light",
    language: json.language ?? "en",
    defaultVendorId: json.defaultVendorId ? String(json.defaultVendorId) : null,
    estimateLinkDays: json.estimateLinkDays ?? 30,
    createdAt: json.createdAt,
    updatedAt: json.updatedAt,
  };
}

type VendorFields = { _id: Types.ObjectId; username: string; firstName?: string; lastName?: string; companyName?: string; address?: string };
const VENDOR_FIELDS = { username: 1, firstName: 1, lastName: 1, companyName: 1, address: 1 } as const;

/** Every vendor account (a vendor is a vendor-role account), or those of `ids`, by name. */
export async function findVendors({ ids }: { ids?: Types.ObjectId[] } = {}) {
  return User.find({ role: "vendor", ...(ids ? { _id: trusted({ $in: ids }) } : {}) })
    .select(VENDOR_FIELDS)
    .sort({ companyName: 1, lastName: 1 })
    .lean<VendorFields[]>();
}

/** The vendor account with this id; null for any other account or a malformed id. */
export async function findVendor(id: string) {
  if (!mongoose.isValidObjectId(id) || !/^[a-f0-9]{24}$/i.test(id)) return null;
  return User.findOne({ _id: id, role: "vendor" }).select(VENDOR_FIELDS).lean<VendorFields>();
}

/** The user with the two-factor secrets loaded (only the two-factor code reads them). */
export async function findUserWithSecrets(id: string) {
  if (!mongoose.isValidObjectId(id)) return null;
  return User.findById(id).select("+twoFactor.secret +twoFactor.pendingSecret +twoFactor.recoveryCodes");
}
