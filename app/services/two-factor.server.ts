import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { trusted } from "mongoose";
import { findUserWithSecrets, User } from "~/models/user.server";
import { open, seal } from "./secret-box.server";
import { Conflict, Invalid, NotFound } from "~/utils/domain-errors";

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30 s. */
const ISSUER = "DamageIQ";
const SEAL_LABEL = "totp-secret";
export const RECOVERY_CODE_COUNT = 10;
/** One step either side: a phone clock a little off still signs in. */
const TOLERANCE_SECONDS = 30;

const hashCode = (code: string) => createHash("sha256").update(normalizeRecovery(code)).digest("base64url");
const normalizeRecovery = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/** Ten codes like "a1b2c-3d4e5-f6a7b-8c9d0": 80 random bits each (ASVS asks for at least 64). */
function newRecoveryCodes() {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => randomBytes(10).toString("hex").match(/.{5}/g)!.join("-"));
}

/** Verifies a TOTP code; answers its time step (for replay protection) or null. */
export async function verifyTotp(secret: string, code: string, { now = Date.now(), afterTimeStep = 0 } = {}) {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    afterTimeStep: afterTimeStep || undefined,
  }).catch(() => ({ valid: false as const }));
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

export interface Enrolment {
  /** The key typed by hand into an app that cannot scan (base32, in groups of four). */
  manualKey: string;
  /** The QR code of the otpauth:// URI, as an SVG document (rendered server-side, no JS needed). */
  qrSvg: string;
}

/** Starts (or restarts) enrolment: a fresh secret, kept sealed as pending until a code confirms it. */
export async function beginEnrolment(userId: string, accountLabel: string): Promise<Enrolment> {
  const secret = generateSecret();
  // Not while it is on: turning it off (with a code) comes first.
  const res = await User.updateOne(
    { _id: userId, "twoFactor.enabled": trusted({ $ne: true }) },
    { $set: { "twoFactor.pendingSecret": seal(SEAL_LABEL, secret) } },
  );
  if (res.matchedCount === 0) throw new Conflict("Two-factor authentication is already enabled");
  return enrolmentView(secret, accountLabel);
}

/** The pending enrolment (the same QR code again after a reload or a wrong code), or null. */
export async function pendingEnrolment(userId: string, accountLabel: string): Promise<Enrolment | null> {
  const user = await findUserWithSecrets(userId);
  const sealed = user?.twoFactor?.pendingSecret;
  const secret = sealed ? open(SEAL_LABEL, sealed) : null;
  return secret && !user?.twoFactor?.enabled ? enrolmentView(secret, accountLabel) : null;
}

async function enrolmentView(secret: string, accountLabel: string): Promise<Enrolment> {
  const uri = generateURI({ issuer: ISSUER, label: accountLabel, secret });
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { manualKey: secret.match(/.{1,4}/g)?.join(" ") ?? secret, qrSvg };
}

const badCode = () => new Invalid("Invalid verification code", { fields: { code: "Invalid verification code" } });

/** Confirms enrolment with a code from the app: two-factor is on; answers the recovery codes (shown once). */
export async function confirmEnrolment(userId: string, code: string) {
  const user = await findUserWithSecrets(userId);
  if (!user) throw new NotFound("User not found");
  if (user.twoFactor?.enabled) throw new Conflict("Two-factor authentication is already enabled");
  const sealed = user.twoFactor?.pendingSecret;
  const secret = sealed ? open(SEAL_LABEL, sealed) : null;
  if (!secret) throw new Conflict("Start the set-up first");
  const step = await verifyTotp(secret, code);
  if (step === null) throw badCode();
  const recoveryCodes = newRecoveryCodes();
  await User.updateOne(
    { _id: userId },
    {
      $set: {
        "twoFactor.enabled": true,
        "twoFactor.secret": sealed,
        "twoFactor.recoveryCodes": recoveryCodes.map(hashCode),
        "twoFactor.lastTimeStep": step,
      },
      $unset: { "twoFactor.pendingSecret": "" },
    },
  );
  return { recoveryCodes };
}

/**
 * Checks a second-factor code for a user with two-factor on: a TOTP code not used before, or an
 * unused recovery code (which is then spent). Answers whether it was accepted.
 */
export async function checkSecondFactor(userId: string, code: string): Promise<boolean> {
  const user = await findUserWithSecrets(userId);
  if (!user?.twoFactor?.enabled || !user.twoFactor.secret) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const secret = open(SEAL_LABEL, user.twoFactor.secret);
    if (!secret) return false;
    const last = user.twoFactor.lastTimeStep ?? 0;
    const step = await verifyTotp(secret, trimmed, { afterTimeStep: last });
    if (step === null) return false;
    // Conditional on the step seen: two requests racing with one code cannot both pass.
    const res = await User.updateOne({ _id: userId, "twoFactor.lastTimeStep": last }, { $set: { "twoFactor.lastTimeStep": step } });
    return res.modifiedCount === 1;
  }
  const wanted = Buffer.from(hashCode(trimmed));
  const match = (user.twoFactor.recoveryCodes ?? []).find(
    (h) => h.length === wanted.length && timingSafeEqual(Buffer.from(h), wanted),
  );
  if (!match) return false;
  const res = await User.updateOne({ _id: userId, "twoFactor.recoveryCodes": match }, { $pull: { "twoFactor.recoveryCodes": match } });
  return res.modifiedCount === 1;
}

/** Turns two-factor off; needs a current code (or a recovery code). */
export async function disableTwoFactor(userId: string, code: string) {
  if (!(await checkSecondFactor(userId, code))) throw badCode();
  await User.updateOne(
    { _id: userId },
    {
      $set: { "twoFactor.enabled": false, "twoFactor.recoveryCodes": [], "twoFactor.lastTimeStep": 0 },
      $unset: { "twoFactor.secret": "", "twoFactor.pendingSecret": "" },
    },
  );
}

/** How many recovery codes are left (the Security tab shows it). */
export async function recoveryCodesLeft(userId: string) {
  const user = await findUserWithSecrets(userId);
  return user?.twoFactor?.recoveryCodes?.length ?? 0;
}
