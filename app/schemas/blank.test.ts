import { describe, expect, it } from "vitest";
import { aiProviderSchema } from "./ai-provider";
import { loginSchema } from "./auth";
import { contactSchema } from "./contact";
import { emailTemplateSchema, mailServerSchema } from "./email";
import { profileSchema } from "./settings";
import { webhookEndpointCreateSchema } from "./webhooks";

// The API description states each text limit as `maxLength`, which counts the text as sent. A schema
// that trimmed first accepted a no-break space plus 100 letters as a 100-character last name
// (Schemathesis, negative data accepted on PUT /api/contacts/{id}).
const NBSP = "\u00a0";
const contact = { firstName: "Jane", lastName: "Doe", email: "jane@example.com" };

describe("text limits count the text as sent, before trimming", () => {
  it("refuses a required field one character over its limit once padded", () => {
    const result = contactSchema.safeParse({ ...contact, lastName: `${NBSP}${"a".repeat(100)}` });
    expect(result.success).toBe(false);
    expect(result.error?.flatten().fieldErrors.lastName).toEqual(["Last name must be at most 100 characters"]);
  });

  it("still trims what is within the limit", () => {
    expect(contactSchema.parse({ ...contact, lastName: ` ${"a".repeat(98)} ` }).lastName).toBe("a".repeat(98));
  });

  it("refuses blank text longer than an optional field's limit instead of taking it as absent", () => {
    expect(contactSchema.safeParse({ ...contact, phone: " ".repeat(41) }).success).toBe(false);
    expect(contactSchema.parse({ ...contact, phone: " ".repeat(40) }).phone).toBeUndefined();
  });

  it("clears a profile field with blank text within its limit, refuses a longer blank", () => {
    const profile = { ...contact };
    expect(profileSchema.parse({ ...profile, phone: " ".repeat(40) }).phone).toBeNull();
    expect(profileSchema.safeParse({ ...profile, phone: " ".repeat(41) }).success).toBe(false);
  });

  it.each([
    ["an email template's subject", () => emailTemplateSchema.safeParse({ name: "T", subject: `${"s".repeat(300)} `, htmlContent: "x" })],
    ["a webhook URL", () => webhookEndpointCreateSchema.safeParse({ url: `https://e.example/${"a".repeat(1982)} `, events: ["estimate.sent"] })],
    ["a sign-in's code", () => loginSchema.safeParse({ username: "jane", password: "pw", totp: " ".repeat(41) })],
    ["the mail server's from address", () => mailServerSchema.safeParse({ from: " ".repeat(255) })],
    ["the AI provider's base URL", () => aiProviderSchema.safeParse({ model: "m", baseURL: " ".repeat(501) })],
  ])("applies the limit to %s as sent", (_name, parse) => {
    expect(parse().success).toBe(false);
  });
});
