import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "~/utils/env.server";

/**
 * Secrets kept at rest (TOTP seeds, webhook and AI provider keys, emailed links' tokens, the mailer's
 * SMTP password): AES-256-GCM with a key derived by HKDF-SHA256 from SESSION_SECRET and a label per
 * use, so one purpose's key opens nothing else. Sealed form: "v1.<iv>.<tag>.<ciphertext>", base64url
 * parts. The one place the app seals anything.
 */
export interface SealPurpose {
  label: string;
  /** HKDF salt. */
  salt: string;
  /** Whether the label is authenticated with the value (GCM additional data). */
  bindsLabel: boolean;
}

/** A purpose's label, authenticated: a value sealed for one purpose does not open as another. */
const purpose = (label: string): SealPurpose => ({ label, salt: "damageiq", bindsLabel: true });

/**
 * The SMTP password's purpose, as it was sealed before the labels were authenticated: its own
 * label as the HKDF info with an empty salt, no additional data. Kept so stored passwords open.
 */
export const MAIL_PASSWORD: SealPurpose = { label: "damageiq mail-server password v1", salt: "", bindsLabel: false };

const keys = new Map<string, Buffer>();
function keyFor({ label, salt }: SealPurpose, secret: string) {
  const cacheKey = `${salt}\u0000${label}\u0000${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, salt, label, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

export function sealFor(use: SealPurpose, plaintext: string, secret = env.SESSION_SECRET) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(use, secret), iv);
  if (use.bindsLabel) cipher.setAAD(Buffer.from(use.label));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plaintext, or null when the value was not sealed for this purpose and secret (or was altered). */
export function openFor(use: SealPurpose, sealed: string, secret = env.SESSION_SECRET): string | null {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(use, secret), Buffer.from(iv, "base64url"));
    if (use.bindsLabel) decipher.setAAD(Buffer.from(use.label));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export const seal = (label: string, plaintext: string, secret = env.SESSION_SECRET) => sealFor(purpose(label), plaintext, secret);

/** The plaintext, or null when the value was not sealed with this label and secret (or was altered). */
export const open = (label: string, sealed: string, secret = env.SESSION_SECRET) => openFor(purpose(label), sealed, secret);
