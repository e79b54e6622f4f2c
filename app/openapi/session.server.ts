import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { apiTokenSchema, changePasswordSchema, loginSchema, TOKEN_LIFETIMES } from "~/schemas/auth";
import { preferencesSchema, profileSchema } from "~/schemas/settings";
import { ApiArea, errors, isoDate, json, MessageBody, objectIdText, record, z, wholeListHeaders } from "./registry.server";
import { wholeListQuerySchema } from "~/schemas/list-query";

/** The user object every account answer carries (never a hash or an internal key). */
export function userSchema(area: ApiArea) {
  return area.schema(
    "User",
    record({
      id: objectIdText,
      username: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      role: z.enum(["admin", "dealer", "vendor"]),
      companyName: z.string().nullable(),
      phone: z.string().nullable(),
      address: z.string().nullable(),
      isCustomAuth: z.boolean(),
      sessionTimeout: z.string(),
      loginNotifications: z.boolean(),
      twoFactorEnabled: z.boolean(),
      theme: z.string(),
      language: z.string(),
      defaultVendorId: z.string().nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
}

const setCookie = { "Set-Cookie": { description: "The session cookie", schema: { type: "string" as const } } };

/** Signing in and out, the caller's own account, API tokens, export and import. */
export function describeSession(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Sign-in and account");
  const User = userSchema(area);

  area.describe({
    method: "post", path: "/api/admin/login", operationId: "login", auth: "none",
    summary: "Sign in (any role)",
    description: "Answers the user and sets the session cookie. An account with two-factor on sends `totp` too (401 \"Two-factor code required\" without it).",
    body: loginSchema, example: { username: "dealer1", password: "correct horse battery" },
    responses: {
      200: json("Signed in", record({ message: z.string(), user: User }), { headers: setCookie }),
      401: { ...errors[401], description: "Wrong username or password, or a second factor needed" },
      403: { ...errors[403], description: "Posted by another site's page" },
      429: errors[429],
      503: { ...errors[503], description: "Too many sign-ins at once, or the database is unreachable" },
    },
  });
  area.describe({
    method: "get", path: "/api/login", operationId: "loginPage", auth: "none",
    summary: "Redirects to the sign-in page",
    responses: { 302: { description: "To /login", headers: { Location: { description: "/login", schema: { type: "string" } } } } },
  });
  const loggedOut = {
    200: json("Signed out (the session cookie is cleared)", MessageBody, { headers: setCookie }),
    302: { description: "A browser (Accept: text/html) is sent to /login", headers: { Location: { description: "/login", schema: { type: "string" as const } } } },
    403: { ...errors[403], description: "Started by another site" },
  };
  area.describe({ method: "get", path: "/api/logout", operationId: "logoutGet", auth: "none", summary: "Sign out", responses: loggedOut });
  area.describe({ method: "post", path: "/api/logout", operationId: "logout", auth: "none", summary: "Sign out", responses: loggedOut });

  area.describe({
    method: "get", path: "/api/auth/user", operationId: "getCurrentUser", auth: "user",
    summary: "The signed-in user",
    responses: { 200: json("The user, `role` as previewed and `_originalRole` the real one", User.extend({ _originalRole: z.enum(["admin", "dealer", "vendor"]) })) },
  });
  area.describe({
    method: "put", path: "/api/auth/user", operationId: "updateProfile", auth: "user",
    summary: "Update the caller's profile", description: "A new email needs `currentPassword`. Blank phone, company or address clears it.",
    body: profileSchema, example: { firstName: "Jane", lastName: "Doe", email: "jane@example.com", phone: "555-0100" },
    responses: { 200: json("The saved user", User), 409: { ...errors[409], description: "The email belongs to another account" } },
  });
  area.describe({
    method: "put", path: "/api/auth/preferences", operationId: "updatePreferences", auth: "user",
    summary: "Security and appearance preferences, the default vendor", description: "Only the fields sent change.",
    // The schema's refinement (at least one field), and a blank default vendor clears it as null does.
    body: preferencesSchema
      .innerType()
      .extend({ defaultVendorId: z.string().regex(/^(?:[a-fA-F0-9]{24})?$/).nullable().optional() })
      .openapi({ minProperties: 1 }),
    example: { theme: "dark", sessionTimeout: "1d" },
    responses: { 200: json("The saved user", User) },
  });
  area.describe({
    method: "put", path: "/api/auth/password", operationId: "changePassword", auth: "user",
    summary: "Change the caller's password",
    description: "Other sessions end and API tokens are revoked; the answer carries a fresh session cookie.",
    body: changePasswordSchema.openapi({ description: "`confirmPassword` must equal `newPassword`" }), example: { currentPassword: "old password", newPassword: "a new long password", confirmPassword: "a new long password" },
    responses: { 200: json("Changed", MessageBody, { headers: setCookie }), 429: errors[429] },
  });

  const Token = area.schema(
    "ApiToken",
    record({ id: objectIdText, name: z.string(), prefix: z.string(), createdAt: isoDate, lastUsedAt: isoDate.nullable(), expiresAt: isoDate.nullable() }),
  );
  area.describe({
    method: "get", path: "/api/auth/tokens", operationId: "listApiTokens", auth: "user",
    summary: "The caller's API tokens (never their secrets)", query: wholeListQuerySchema, responses: { 200: json("The tokens", z.array(Token), { headers: wholeListHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/auth/tokens", operationId: "createApiToken", auth: "user",
    summary: "Create an API token (from a signed-in session only)",
    description: "The secret `token` is in this answer only. A request with a Bearer token is refused (403).",
    // The schema's refinement: one of the offered lifetimes.
    body: apiTokenSchema.extend({ expiresInDays: z.union(TOKEN_LIFETIMES.map((d) => z.literal(d)) as [z.ZodLiteral<number>, z.ZodLiteral<number>]).optional() }),
    example: { name: "Shop management system", expiresInDays: 90 },
    responses: {
      201: json("The token, with its secret", record({ token: z.string(), id: objectIdText, name: z.string(), createdAt: isoDate, expiresAt: isoDate.nullable() })),
      409: { ...errors[409], description: "At most 20 tokens" },
    },
  });
  area.describe({
    method: "delete", path: "/api/auth/tokens/{id}", operationId: "revokeApiToken", auth: "user",
    params: z.object({ id: z.string().openapi({ example: "6650c0ffee0123456789abcd" }) }),
    summary: "Revoke an API token", responses: { 200: json("Revoked", MessageBody) },
  });

  area.describe({
    method: "get", path: "/api/account/export", operationId: "exportAccount", auth: "user",
    summary: "The account's data as a tar.gz (one NDJSON file per collection)",
    responses: {
      200: {
        description: "The archive",
        headers: { "Content-Disposition": { description: "attachment; filename=…", schema: { type: "string" } } },
        content: { "application/gzip": { schema: z.string().openapi({ format: "binary" }) } },
      },
    },
  });
  const ImportLine = record({ collection: z.string(), line: z.number().int(), message: z.string() });
  const ImportReport = record({
    source: record({ accountId: z.string(), username: z.string(), exportedAt: z.string() }).nullable(),
    collections: z.array(
      record({
        name: z.string(),
        records: z.number().int(),
        valid: z.number().int(),
        invalid: z.number().int(),
        existing: z.number().int(),
        notForAccount: z.number().int(),
        droppedReferences: z.number().int(),
        imported: z.number().int(),
      }),
    ),
    errors: z.array(ImportLine),
    totalErrors: z.number().int(),
    dropped: z.array(ImportLine),
    totalDropped: z.number().int(),
    dryRun: z.boolean(),
  });
  const ImportView = record({
    id: objectIdText,
    status: z.enum(["running", "interrupted", "done", "abandoned", "discarded"]),
    records: z.number().int(),
    applied: z.number().int(),
    attempts: z.number().int(),
    startedAt: isoDate,
    finishedAt: isoDate.nullable(),
    report: ImportReport.nullable(),
    discarded: record({ by: objectIdText, removed: z.record(z.string(), z.number().int()) })
      .nullable()
      .openapi({ description: "A discarded import's audit: who discarded it and the records removed, per collection" }),
  });
  area.describe({
    method: "post", path: "/api/account/import", operationId: "importAccount", auth: "user",
    summary: "Import an export archive",
    description:
      "The archive as the body (`application/gzip`, `application/x-gzip` or `application/octet-stream`). Records already there are skipped; `dryRun=true` stores nothing and answers the report. An import whose process dies half-way reads as `interrupted` (`GET /api/account/import`) and is finished by `POST /api/account/import/resume` (docs/decisions/0059).",
    query: z.object({ dryRun: z.enum(["true", "false"]).optional() }),
    body: { raw: { required: true, content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } } },
    responses: {
      200: json("What was (or, in a dry run, would be) imported", ImportReport),
      400: { ...errors[400], description: "Not a readable export archive" },
      409: { ...errors[409], description: "An earlier import has not finished (resume it first)" },
      413: errors[413],
      415: errors[415],
    },
  });
  area.describe({
    method: "get", path: "/api/account/import", operationId: "latestAccountImport", auth: "user",
    summary: "The account's newest import",
    description: "Running (with `applied` of `records` gone through), `interrupted` (its process died: resume it), `done` (with its report), `abandoned` (its archive is gone) or `discarded` (its owner removed it and what it stored).",
    responses: { 200: json("The import", ImportView), 404: { ...errors[404], description: "The account never imported" } },
  });
  area.describe({
    method: "post", path: "/api/account/import/resume", operationId: "resumeAccountImport", auth: "user",
    summary: "Finish the account's interrupted import",
    description: "Applies the archive again; what the import stored before it was interrupted is recognised, never stored twice.",
    responses: {
      200: json("The finished import and its report", record({ import: ImportView, report: ImportReport })),
      404: { ...errors[404], description: "No interrupted import (or its archive is gone)" },
      409: { ...errors[409], description: "The import is running, or has finished already" },
    },
  });
  area.describe({
    method: "post", path: "/api/account/import/discard", operationId: "discardAccountImport", auth: "user",
    summary: "Discard the account's interrupted import",
    description:
      "Removes the records the interrupted import stored (what was in the account before stays) and its archive; the import then reads as `discarded`, with who discarded it and what was removed.",
    responses: {
      200: json("The discarded import", ImportView),
      404: { ...errors[404], description: "No interrupted import" },
      409: { ...errors[409], description: "The import is running, or has finished already" },
    },
  });
}
