import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/utils/env.server";

/** The app route that local-storage upload and download URLs point at. */
export const SIGNED_ROUTE = "/api/objects/signed";

type Params = Record<string, string>;

const canonical = (params: Params) =>
  Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("\n");

function signature(params: Params) {
  return createHmac("sha256", env.SESSION_SECRET).update(`damageiq-storage-v1\n${canonical(params)}`).digest("base64url");
}

/** A path with the operation's parameters, an expiry (epoch seconds) and their HMAC. */
export function signUrl(params: Params, expiresIn: number, now = Date.now()) {
  const withExpiry = { ...params, exp: String(Math.floor(now / 1000) + expiresIn) };
  const search = new URLSearchParams({ ...withExpiry, sig: signature(withExpiry) });
  return `${SIGNED_ROUTE}?${search}`;
}

export type Verified = { ok: true; params: Params } | { ok: false; status: 403; message: string };

/** Checks a signed URL's query: a bad signature and an expired one are both 403 (S3's answers). */
export function verifySignedUrl(search: URLSearchParams, now = Date.now()): Verified {
  const params: Params = {};
  for (const [k, v] of search) if (k !== "sig") params[k] = v;
  const given = Buffer.from(search.get("sig") ?? "");
  const expected = Buffer.from(signature(params));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, status: 403, message: "The request signature we calculated does not match the signature you provided." };
  }
  if (!(Number(params.exp) * 1000 > now)) return { ok: false, status: 403, message: "Request has expired" };
  return { ok: true, params };
}
