import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "~/utils/env.server";

/**
 * Secrets kept at rest (TOTP seeds; the mailer's SMTP password may use its own label): AES-256-GCM
 * with a key derived by HKDF-SHA256 from SESSION_SECRET and a label per use, so one purpose's key
 * opens nothing else. Sealed form: "v1.<iv>.<tag>.<ciphertext>", base64url parts.
 */
const keys = new Map<string, Buffer>();
function keyFor(label: string, secret: string) {
  const cacheKey = `${label}\u0000${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "damageiq", label, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

export function seal(label: string, plaintext: string, secret = env.SESSION_SECRET) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(label, secret), iv);
  // The label is authenticated too: a value sealed for one purpose does not open as another.
  cipher.setAAD(Buffer.from(label));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plaintext, or null when the value was not sealed with this label and secret (or was altered). */
export function open(label: string, sealed: string, secret = env.SESSION_SECRET): string | null {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(label, secret), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(label));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
