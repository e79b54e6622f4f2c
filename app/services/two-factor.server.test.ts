import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { open, seal } from "./secret-box.server";
import { verifyTotp } from "./two-factor.server";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" (base32 below), 8-digit codes; the
// 6-digit code is the last six digits.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("verifyTotp", () => {
  it("accepts the RFC 6238 test vectors at their times and answers the time step", async () => {
    expect(await verifyTotp(RFC_SECRET, "287082", { now: 59_000 })).toBe(1);
    expect(await verifyTotp(RFC_SECRET, "081804", { now: 1111111109_000 })).toBe(37037036);
    expect(await verifyTotp(RFC_SECRET, "050471", { now: 1111111111_000 })).toBe(37037037);
    expect(await verifyTotp(RFC_SECRET, "005924", { now: 1234567890_000 })).toBe(41152263);
  });

  it("allows one step of clock drift either way, not two", async () => {
    const now = 1234567890_000;
    const next = await generate({ secret: RFC_SECRET, epoch: now / 1000 + 30 });
    const later = await generate({ secret: RFC_SECRET, epoch: now / 1000 + 60 });
    expect(await verifyTotp(RFC_SECRET, next, { now })).not.toBeNull();
    expect(await verifyTotp(RFC_SECRET, later, { now })).toBeNull();
  });

  it("refuses a code already used (afterTimeStep), malformed codes and wrong ones", async () => {
    expect(await verifyTotp(RFC_SECRET, "287082", { now: 59_000, afterTimeStep: 1 })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "28708", { now: 59_000 })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "abcdef", { now: 59_000 })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "287083", { now: 59_000 })).toBeNull();
  });
});

describe("secret box (AES-256-GCM, HKDF key per label)", () => {
  const secret = "s".repeat(40);
  it("round-trips, with a fresh IV each time", () => {
    const a = seal("totp-secret", "JBSWY3DPEHPK3PXP", secret);
    const b = seal("totp-secret", "JBSWY3DPEHPK3PXP", secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain("JBSWY3DPEHPK3PXP");
    expect(open("totp-secret", a, secret)).toBe("JBSWY3DPEHPK3PXP");
  });

  it("does not open under another label, another SESSION_SECRET, or altered", () => {
    const sealed = seal("totp-secret", "value", secret);
    expect(open("smtp-password", sealed, secret)).toBeNull();
    expect(open("totp-secret", sealed, "t".repeat(40))).toBeNull();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other").toString("base64url");
    expect(open("totp-secret", parts.join("."), secret)).toBeNull();
    expect(open("totp-secret", "garbage", secret)).toBeNull();
  });
});
