import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { env } from "~/utils/env.server";

/** The app route that local-storage upload and download URLs point at. */
export const SIGNED_ROUTE = "/api/objects/signed";

type Params = Record<string, string>;

/** The parameters each operation is signed with, exactly (plus `op` and `exp`). */
const FIELDS: Record<string, readonly string[]> = {
  put: ["key"],
  get: ["key"],
  part: ["key", "uploadId", "partNumber", "max", "name"],
};
const WHOLE_NUMBERS = ["partNumber", "max", "exp"];

let signingKey: Buffer | undefined;
/** A key of its own, derived from the session secret: a URL signature can never stand for anything else. */
const key = () =>
  (signingKey ??= Buffer.from(hkdfSync("sha256", env.SESSION_SECRET, "", "damageiq storage URL signing v2", 32)));

/**
 * What is signed: a JSON array of [name, value] pairs in name order. Unambiguous, unlike the
 * `name=value` lines of v1, where a value holding a newline could absorb another parameter.
 */
const canonical = (params: Params) => JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]));
const signature = (params: Params) => createHmac("sha256", key()).update(canonical(params)).digest("base64url");

/** Exactly the operation's parameters, whole numbers where numbers belong. */
function wellFormed(params: Params) {
  const fields = FIELDS[params.op];
  if (!fields) return false;
  const names = Object.keys(params).sort();
  const expected = [...fields, "op", "exp"].sort();
  if (names.length !== expected.length || names.some((n, i) => n !== expected[i])) return false;
  return WHOLE_NUMBERS.every((n) => params[n] === undefined || /^\d{1,15}$/.test(params[n]));
}

/** A path with the operation's parameters, an expiry (epoch seconds) and their HMAC. */
export function signUrl(params: Params, expiresIn: number, now = Date.now()) {
  const withExpiry = { ...params, exp: String(Math.max(0, Math.floor(now / 1000) + expiresIn)) };
  if (!wellFormed(withExpiry)) throw new Error(`cannot sign ${JSON.stringify(params)}: not the operation's parameters`);
  const search = new URLSearchParams({ ...withExpiry, sig: signature(withExpiry) });
  return `${SIGNED_ROUTE}?${search}`;
}

export type Verified = { ok: true; params: Params } | { ok: false; status: 403; message: string };

const MISMATCH = "The request signature we calculated does not match the signature you provided.";

/** Checks a signed URL's query: a bad signature and an expired one are both 403 (S3's answers). */
export function verifySignedUrl(search: URLSearchParams, now = Date.now()): Verified {
  const params: Params = {};
  for (const [k, v] of search) {
    if (k === "sig") continue;
    // A repeated parameter is refused rather than read one way here and another way later.
    if (k in params) return { ok: false, status: 403, message: MISMATCH };
    params[k] = v;
  }
  const given = Buffer.from(search.get("sig") ?? "");
  const expected = Buffer.from(signature(params));
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || !wellFormed(params)) {
    return { ok: false, status: 403, message: MISMATCH };
  }
  if (!(Number(params.exp) * 1000 > now)) return { ok: false, status: 403, message: "Request has expired" };
  return { ok: true, params };
}
