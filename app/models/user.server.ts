import { defineModel, jsonWithout } from "./define-model.server";
import mongoose, { Schema, trusted, type InferSchemaType, type Types } from "mongoose";

export const ROLES = ["admin", "dealer", "vendor"] as const;
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
    sessionTimeout: { type: String, enum: ["1h", "1d", "7d", "30d"], default: "7d" },
    /** Settings → Security: an email to the account's own address at each new sign-in. */
    loginNotifications: { type: Boolean, default: false },
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
  },
  {
    timestamps: true,
    toJSON: jsonWithout("passwordHash", "usernameKey", "mailServer"),
  },
);

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId; id: string };
export const User = defineModel("User", userSchema);

export const usernameKey = (username: string) => username.trim().toLowerCase();

export async function findUserById(id: string) {
  if (!mongoose.isValidObjectId(id)) return null;
  return User.findById(id);
}

export async function findUserForLogin(username: string) {
  return User.findOne({ usernameKey: usernameKey(username) }).select("+passwordHash");
}

export async function adminExists() {
  return (await User.exists({ role: "admin" })) !== null;
}

export async function listUsers() {
  return User.find().sort({ createdAt: -1 });
}

export async function listUsersByRole(role: Role) {
  return User.find({ role }).sort({ createdAt: -1 });
}

export type PublicUser = ReturnType<typeof toPublicUser>;

/** What any response may carry about a user: never hashes or internal keys. */
export function toPublicUser(user: InstanceType<typeof User>) {
  const json = user.toJSON() as Record<string, unknown>;
  return {
    id: String(json.id),
    username: json.username as string,
    email: json.email as string,
    firstName: json.firstName as string,
    lastName: json.lastName as string,
    role: json.role as Role,
    companyName: (json.companyName as string | undefined) ?? null,
    phone: (json.phone as string | undefined) ?? null,
    address: (json.address as string | undefined) ?? null,
    isCustomAuth: Boolean(json.isCustomAuth),
    createdAt: json.createdAt as Date,
    updatedAt: json.updatedAt as Date,
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
