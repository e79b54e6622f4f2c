import { describe, expect, it } from "vitest";
import { MAIL_PASSWORD, open, openFor, seal, sealFor } from "./secret-box.server";

const SECRET = "test-session-secret-0123456789abcdef";

describe("secret-box: the one way secrets are sealed at rest", () => {
  it("opens an SMTP password sealed by the mail settings' earlier code (a stored one keeps working)", () => {
    // Written by the mail settings' own AES-GCM helper before it moved here (HKDF with an empty salt, no additional data).
    const stored = "v1.aKQpQtt33g4ZQlCO.TMEZRRe5i6_haxUDCPgqTQ.3K8mlHMb0nzunTVzMBg";
    expect(openFor(MAIL_PASSWORD, stored, SECRET)).toBe("smtp-pässword");
    expect(openFor(MAIL_PASSWORD, sealFor(MAIL_PASSWORD, "another", SECRET), SECRET)).toBe("another");
  });

  it("a value sealed for one purpose or secret opens for no other, and an altered one opens for none", () => {
    const sealed = seal("two-factor seed", "JBSWY3DPEHPK3PXP", SECRET);
    expect(open("two-factor seed", sealed, SECRET)).toBe("JBSWY3DPEHPK3PXP");
    expect(open("webhook secret", sealed, SECRET)).toBeNull();
    expect(open("two-factor seed", sealed, `${SECRET}x`)).toBeNull();
    expect(openFor(MAIL_PASSWORD, sealed, SECRET)).toBeNull();
    expect(open("damageiq mail-server password v1", sealFor(MAIL_PASSWORD, "p", SECRET), SECRET)).toBeNull();
    const [v, iv, tag, body] = sealed.split(".");
    const flipped = body[0] === "A" ? `B${body.slice(1)}` : `A${body.slice(1)}`;
    expect(open("two-factor seed", [v, iv, tag, flipped].join("."), SECRET)).toBeNull();
    expect(open("two-factor seed", "v2.x.y.z", SECRET)).toBeNull();
  });
});
