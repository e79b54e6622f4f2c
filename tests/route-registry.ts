/**
 * Every route of the app: its URL pattern, methods, the roles each method admits and whether an id in
 * it is owner-scoped (another account's id answers 404 as if it did not exist). The security suite
 * (tests/security/*) generates its role × route matrix and its probes from this list, and
 * tests/security/route-registry.test.ts fails when a file in app/routes is missing here or listed here
 * without existing, so a new route cannot go untested.
 *
 * It lives under tests/ rather than app/: the app enforces these rules in its services
 * (requireUser, requireAdmin, the vendor and training rules), and this is the independent statement
 * the tests hold them to. Were the app to read it, a wrong entry would change the app and its test
 * alike and never fail.
 */

export type Role = "dealer" | "vendor" | "admin";
export type Caller = "anonymous" | Role;
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** What a route's `:id` (or `*`) names; its owner decides who may see it. */
export type Owned =
  /** A dealer's (any signed-in account's) own documents: another account's answers 404, an admin reaches all. */
  | "contact"
  | "package"
  | "assessment"
  | "upload"
  | "token"
  | "emailTemplate"
  | "emailLog"
  /** An account's webhook endpoints and their deliveries: its own only, an admin's too. */
  | "webhook"
  | "webhookDelivery"
  /** An account's members (and invites): its owner's only; an admin's account has none. */
  | "member"
  /** A vendor's documents: another vendor's answers 404, an admin reaches all. */
  | "pricingRule"
  | "vendorPackage"
  | "learningRecord"
  /** Admin-only documents: no owner scoping (every admin reaches every one). */
  | "trainingItem"
  | "user"
  /** A vendor account, named by id: public to every signed-in caller. */
  | "vendor";

export interface RouteEntry {
  /** File name in app/routes. */
  file: string;
  /** api: JSON under /api (401 when anonymous); screen: HTML (anonymous → /login); other: neither. */
  kind: "api" | "screen" | "other";
  /** URL pattern: `:name` for a parameter, `*` for the rest of the path. */
  path: string;
  /** The roles each method admits; "anonymous" when no sign-in is needed. */
  methods: Partial<Record<Method, readonly Caller[]>>;
  /** What the path's id names; owner-scoped kinds answer another account's id with 404. */
  owned?: Owned;
  /** The account's real role decides, not a previewed one (an admin previewing dealer keeps these). */
  realRole?: true;
  /** The call ends the caller's session (the matrix gives it a session of its own). */
  endsSession?: true;
}

export const ANYONE = ["anonymous", "dealer", "vendor", "admin"] as const;
export const SIGNED_IN = ["dealer", "vendor", "admin"] as const;
export const ADMIN = ["admin"] as const;
/** The owners of dealer and vendor accounts (an admin's account has no members). */
export const OWNERS = ["dealer", "vendor"] as const;
/** Vendors act on their own pricing, admins on any vendor's; dealers are refused. */
export const VENDOR_OR_ADMIN = ["vendor", "admin"] as const;

/** Kinds whose id is owner-scoped: another account's answers 404. */
export const OWNER_SCOPED: ReadonlySet<Owned> = new Set(["contact", "package", "assessment", "upload", "token", "emailTemplate", "emailLog", "webhook", "webhookDelivery", "member", "pricingRule", "vendorPackage", "learningRecord"]);
/** Owner-scoped kinds owned by vendors (the rest by any signed-in account). */
export const VENDOR_OWNED: ReadonlySet<Owned> = new Set(["pricingRule", "vendorPackage", "learningRecord"]);

export const routes: readonly RouteEntry[] = [
  // --- Authentication and accounts
  { file: "api.admin.login.ts", kind: "api", path: "/api/admin/login", methods: { POST: ANYONE } },
  { file: "api.login.ts", kind: "api", path: "/api/login", methods: { GET: ANYONE } },
  { file: "api.logout.ts", kind: "api", path: "/api/logout", methods: { GET: ANYONE, POST: ANYONE }, endsSession: true },
  { file: "api.auth.user.ts", kind: "api", path: "/api/auth/user", methods: { GET: SIGNED_IN, PUT: SIGNED_IN } },
  // The caller's own settings and data: no id in the path, always the caller's account.
  { file: "api.auth.preferences.ts", kind: "api", path: "/api/auth/preferences", methods: { PUT: SIGNED_IN } },
  { file: "api.auth.estimate-settings.ts", kind: "api", path: "/api/auth/estimate-settings", methods: { GET: SIGNED_IN, PUT: SIGNED_IN } },
  { file: "api.auth.logo.ts", kind: "api", path: "/api/auth/logo", methods: { POST: SIGNED_IN, DELETE: SIGNED_IN } },
  // Ends the caller's other sessions and revokes its tokens (the matrix's empty body is refused first).
  { file: "api.auth.password.ts", kind: "api", path: "/api/auth/password", methods: { PUT: SIGNED_IN } },
  { file: "api.account.export.ts", kind: "api", path: "/api/account/export", methods: { GET: SIGNED_IN } },
  { file: "api.account.import.ts", kind: "api", path: "/api/account/import", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  // The caller's own interrupted import (no id: another account's is never named).
  { file: "api.account.import.resume.ts", kind: "api", path: "/api/account/import/resume", methods: { POST: SIGNED_IN } },
  { file: "api.account.import.discard.ts", kind: "api", path: "/api/account/import/discard", methods: { POST: SIGNED_IN } },
  // Tokens are created from a session only (a token minting tokens is 403): the matrix signs in with cookies.
  { file: "api.auth.tokens.ts", kind: "api", path: "/api/auth/tokens", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.auth.tokens.$id.ts", kind: "api", path: "/api/auth/tokens/:id", methods: { DELETE: SIGNED_IN }, owned: "token" },
  // The account's people (owner only: a member, an admin's account answer 403; docs/decisions/0067).
  // Members' roles inside an account: tests/members.api.test.ts (role × operation inside and across accounts).
  { file: "api.members.ts", kind: "api", path: "/api/members", methods: { GET: OWNERS, POST: OWNERS }, realRole: true },
  { file: "api.members.$id.ts", kind: "api", path: "/api/members/:id", methods: { PUT: OWNERS, DELETE: OWNERS }, owned: "member", realRole: true },
  { file: "api.admin.check-setup.ts", kind: "api", path: "/api/admin/check-setup", methods: { GET: ANYONE } },
  // First-run setup: open to anyone until an admin exists (then 409).
  { file: "api.admin.create-account.ts", kind: "api", path: "/api/admin/create-account", methods: { POST: ANYONE } },
  { file: "api.admin.create-user.ts", kind: "api", path: "/api/admin/create-user", methods: { POST: ADMIN } },
  { file: "api.admin.change-credentials.ts", kind: "api", path: "/api/admin/change-credentials", methods: { PUT: ADMIN } },
  { file: "api.admin.users.ts", kind: "api", path: "/api/admin/users", methods: { GET: ADMIN, POST: ADMIN } },
  { file: "api.admin.users.$id.ts", kind: "api", path: "/api/admin/users/:id", methods: { GET: ADMIN, DELETE: ADMIN }, owned: "user" },
  { file: "api.admin.role-status.ts", kind: "api", path: "/api/admin/role-status", methods: { GET: ADMIN }, realRole: true },
  // The installation's AI provider (Admin Settings → AI Provider).
  { file: "api.admin.ai-provider.ts", kind: "api", path: "/api/admin/ai-provider", methods: { GET: ADMIN, PUT: ADMIN, DELETE: ADMIN } },
  { file: "api.admin.ai-provider.[test].ts", kind: "api", path: "/api/admin/ai-provider/test", methods: { POST: ADMIN } },
  { file: "api.admin.switch-role.ts", kind: "api", path: "/api/admin/switch-role", methods: { POST: ADMIN }, realRole: true },

  // --- A dealer's own data
  { file: "api.contacts.ts", kind: "api", path: "/api/contacts", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.contacts.$id.ts", kind: "api", path: "/api/contacts/:id", methods: { GET: SIGNED_IN, PUT: SIGNED_IN, DELETE: SIGNED_IN }, owned: "contact" },
  { file: "api.packages.ts", kind: "api", path: "/api/packages", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.packages.$id.ts", kind: "api", path: "/api/packages/:id", methods: { GET: SIGNED_IN, PUT: SIGNED_IN, DELETE: SIGNED_IN }, owned: "package" },
  { file: "api.assessments.ts", kind: "api", path: "/api/assessments", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.assessments.$id.ts", kind: "api", path: "/api/assessments/:id", methods: { GET: SIGNED_IN, PUT: SIGNED_IN, DELETE: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.analyze.ts", kind: "api", path: "/api/assessments/:id/analyze", methods: { POST: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.approve.ts", kind: "api", path: "/api/assessments/:id/approve", methods: { POST: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.reject.ts", kind: "api", path: "/api/assessments/:id/reject", methods: { POST: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.estimate.ts", kind: "api", path: "/api/assessments/:id/estimate", methods: { GET: SIGNED_IN, PUT: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.estimate[.]pdf.ts", kind: "api", path: "/api/assessments/:id/estimate.pdf", methods: { GET: SIGNED_IN }, owned: "assessment" },
  { file: "api.dashboard.stats.ts", kind: "api", path: "/api/dashboard/stats", methods: { GET: SIGNED_IN } },
  // The VIN decode (docs/decisions/0032): no account's data, any signed-in caller.
  { file: "api.vin.$vin.ts", kind: "api", path: "/api/vin/:vin", methods: { GET: SIGNED_IN } },
  { file: "api.assessments.$id.send-email.ts", kind: "api", path: "/api/assessments/:id/send-email", methods: { POST: SIGNED_IN }, owned: "assessment" },
  // The customer's links to an estimate (docs/decisions/0019); a link of another estimate is 404.
  { file: "api.assessments.$id.links.ts", kind: "api", path: "/api/assessments/:id/links", methods: { GET: SIGNED_IN, POST: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.links.$linkId.ts", kind: "api", path: "/api/assessments/:id/links/:linkId", methods: { DELETE: SIGNED_IN }, owned: "assessment" },
  // The customers' questions on an estimate and the dealer's answers (docs/decisions/0058); a question of another estimate is 404.
  { file: "api.assessments.$id.questions.ts", kind: "api", path: "/api/assessments/:id/questions", methods: { GET: SIGNED_IN }, owned: "assessment" },
  { file: "api.assessments.$id.questions.$questionId.answer.ts", kind: "api", path: "/api/assessments/:id/questions/:questionId/answer", methods: { POST: SIGNED_IN }, owned: "assessment" },

  // --- Email (app/services/email-*.server.ts, mail-config.server.ts)
  { file: "api.email-templates.ts", kind: "api", path: "/api/email-templates", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.email-templates.$id.ts", kind: "api", path: "/api/email-templates/:id", methods: { GET: SIGNED_IN, PUT: SIGNED_IN, DELETE: SIGNED_IN }, owned: "emailTemplate" },
  { file: "api.email-templates.$id.copy.ts", kind: "api", path: "/api/email-templates/:id/copy", methods: { POST: SIGNED_IN }, owned: "emailTemplate" },
  { file: "api.email-templates.preview.ts", kind: "api", path: "/api/email-templates/preview", methods: { POST: SIGNED_IN } },
  { file: "api.deletions.ts", kind: "api", path: "/api/deletions", methods: { GET: SIGNED_IN } },
  { file: "api.email-logs.ts", kind: "api", path: "/api/email-logs", methods: { GET: SIGNED_IN } },
  { file: "api.email-logs.$id.ts", kind: "api", path: "/api/email-logs/:id", methods: { GET: SIGNED_IN }, owned: "emailLog" },
  { file: "api.email-logs.$id.resend.ts", kind: "api", path: "/api/email-logs/:id/resend", methods: { POST: SIGNED_IN }, owned: "emailLog" },
  { file: "api.email-logs.$id.mark-delivered.ts", kind: "api", path: "/api/email-logs/:id/mark-delivered", methods: { POST: SIGNED_IN }, owned: "emailLog" },
  { file: "api.email.[test].ts", kind: "api", path: "/api/email/test", methods: { GET: SIGNED_IN } },
  { file: "api.email.settings.ts", kind: "api", path: "/api/email/settings", methods: { GET: SIGNED_IN, PUT: SIGNED_IN } },

  // --- Webhooks (app/services/webhooks.server.ts): each account's own endpoints, an admin's too.
  { file: "api.webhooks.ts", kind: "api", path: "/api/webhooks", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "api.webhooks.$id.ts", kind: "api", path: "/api/webhooks/:id", methods: { GET: SIGNED_IN, PUT: SIGNED_IN, DELETE: SIGNED_IN }, owned: "webhook" },
  { file: "api.webhooks.$id.rotate-secret.ts", kind: "api", path: "/api/webhooks/:id/rotate-secret", methods: { POST: SIGNED_IN }, owned: "webhook" },
  { file: "api.webhooks.$id.deliveries.ts", kind: "api", path: "/api/webhooks/:id/deliveries", methods: { GET: SIGNED_IN }, owned: "webhook" },
  { file: "api.webhook-deliveries.$id.redeliver.ts", kind: "api", path: "/api/webhook-deliveries/:id/redeliver", methods: { POST: SIGNED_IN }, owned: "webhookDelivery" },

  // --- Uploads and media (the signed URL's signature is its authorisation)
  { file: "api.objects._index.ts", kind: "api", path: "/api/objects", methods: { GET: SIGNED_IN } },
  { file: "api.objects.$id.ts", kind: "api", path: "/api/objects/:id", methods: { DELETE: SIGNED_IN }, owned: "upload" },
  { file: "api.objects.upload.ts", kind: "api", path: "/api/objects/upload", methods: { POST: SIGNED_IN } },
  { file: "api.objects.complete.ts", kind: "api", path: "/api/objects/complete", methods: { POST: SIGNED_IN } },
  { file: "api.objects.signed.ts", kind: "api", path: "/api/objects/signed", methods: { GET: ANYONE, POST: ANYONE, PUT: ANYONE } },
  { file: "api.uploads.import.ts", kind: "api", path: "/api/uploads/import", methods: { POST: SIGNED_IN } },
  { file: "api.uploads.url.meta.ts", kind: "api", path: "/api/uploads/url/meta", methods: { POST: SIGNED_IN } },
  { file: "api.uploads.url.get.ts", kind: "api", path: "/api/uploads/url/get", methods: { POST: SIGNED_IN } },
  { file: "api.uploads.s3.params.ts", kind: "api", path: "/api/uploads/s3/params", methods: { GET: SIGNED_IN } },
  { file: "api.uploads.s3.sts.ts", kind: "api", path: "/api/uploads/s3/sts", methods: { GET: SIGNED_IN } },
  { file: "api.uploads.s3.multipart.ts", kind: "api", path: "/api/uploads/s3/multipart", methods: { POST: SIGNED_IN } },
  { file: "api.uploads.s3.multipart.$uploadId.ts", kind: "api", path: "/api/uploads/s3/multipart/:uploadId", methods: { GET: SIGNED_IN, DELETE: SIGNED_IN } },
  { file: "api.uploads.s3.multipart.$uploadId.batch.ts", kind: "api", path: "/api/uploads/s3/multipart/:uploadId/batch", methods: { GET: SIGNED_IN } },
  { file: "api.uploads.s3.multipart.$uploadId.$partNumber.ts", kind: "api", path: "/api/uploads/s3/multipart/:uploadId/:partNumber", methods: { GET: SIGNED_IN } },
  { file: "api.uploads.s3.multipart.$uploadId.complete.ts", kind: "api", path: "/api/uploads/s3/multipart/:uploadId/complete", methods: { POST: SIGNED_IN } },
  { file: "media.$.ts", kind: "other", path: "/media/*", methods: { GET: SIGNED_IN }, owned: "upload" },

  // --- The API's description (app/openapi): public, it holds no account's data
  { file: "api.openapi[.]json.ts", kind: "api", path: "/api/openapi.json", methods: { GET: ANYONE } },
  { file: "api.docs.ts", kind: "api", path: "/api/docs", methods: { GET: ANYONE } },

  // --- Vendors' pricing knowledge (app/services/vendors.server.ts) and admins' training data
  { file: "api.vendors.ts", kind: "api", path: "/api/vendors", methods: { GET: SIGNED_IN } },
  { file: "api.vendors.$vendorId.quote.ts", kind: "api", path: "/api/vendors/:vendorId/quote", methods: { POST: SIGNED_IN }, owned: "vendor" },
  // Dealers read a vendor's active rules (to price estimates); vendors their own; admins any vendor's.
  { file: "api.vendor-pricing-rules.ts", kind: "api", path: "/api/vendor-pricing-rules", methods: { GET: SIGNED_IN, POST: VENDOR_OR_ADMIN } },
  { file: "api.vendor-pricing-rules.$id.ts", kind: "api", path: "/api/vendor-pricing-rules/:id", methods: { PUT: VENDOR_OR_ADMIN, DELETE: VENDOR_OR_ADMIN }, owned: "pricingRule" },
  { file: "api.vendor-packages.ts", kind: "api", path: "/api/vendor-packages", methods: { GET: VENDOR_OR_ADMIN, POST: VENDOR_OR_ADMIN } },
  { file: "api.vendor-packages.$id.ts", kind: "api", path: "/api/vendor-packages/:id", methods: { PUT: VENDOR_OR_ADMIN, DELETE: VENDOR_OR_ADMIN }, owned: "vendorPackage" },
  // Learning records are added by admins (and the estimate flow); vendors read and validate their own.
  { file: "api.ai-pricing-learning.ts", kind: "api", path: "/api/ai-pricing-learning", methods: { GET: VENDOR_OR_ADMIN, POST: ADMIN } },
  { file: "api.ai-pricing-learning.validate.$id.ts", kind: "api", path: "/api/ai-pricing-learning/validate/:id", methods: { POST: VENDOR_OR_ADMIN }, owned: "learningRecord" },
  { file: "api.admin.ai-training-data.ts", kind: "api", path: "/api/admin/ai-training-data", methods: { GET: ADMIN, POST: ADMIN } },
  { file: "api.admin.ai-training-data.$id.ts", kind: "api", path: "/api/admin/ai-training-data/:id", methods: { GET: ADMIN, PUT: ADMIN, DELETE: ADMIN }, owned: "trainingItem" },

  // --- Screens (the _app layout signs in; its pages and their form posts)
  { file: "healthz.ts", kind: "other", path: "/healthz", methods: { GET: ANYONE } },
  // The customer's estimate page: no account, the token is the key (an unknown one is 404, a dead one 410).
  { file: "e.$token.tsx", kind: "other", path: "/e/:token", methods: { GET: ANYONE, POST: ANYONE } },
  { file: "e.$token.logo.ts", kind: "other", path: "/e/:token/logo", methods: { GET: ANYONE } },
  { file: "e.$token.pdf.ts", kind: "other", path: "/e/:token/pdf", methods: { GET: ANYONE } },
  { file: "e.$token.photos.$n.ts", kind: "other", path: "/e/:token/photos/:n", methods: { GET: ANYONE } },
  // An invite's page: anyone holding the link (an unknown or used one answers 404).
  { file: "invite.$token.tsx", kind: "other", path: "/invite/:token", methods: { GET: ANYONE, POST: ANYONE } },
  { file: "login.tsx", kind: "screen", path: "/login", methods: { GET: ANYONE, POST: ANYONE } },
  { file: "admin.login.tsx", kind: "screen", path: "/admin/login", methods: { GET: ANYONE, POST: ANYONE } },
  { file: "admin.setup.tsx", kind: "screen", path: "/admin/setup", methods: { GET: ANYONE, POST: ANYONE } },
  { file: "logout.tsx", kind: "screen", path: "/logout", methods: { GET: ANYONE, POST: ANYONE }, endsSession: true },
  // The pathless layout has no URL of its own: its loader runs for every page below, which test it.
  { file: "_app.tsx", kind: "screen", path: "", methods: {} },
  { file: "_app._index.tsx", kind: "screen", path: "/", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.$.tsx", kind: "screen", path: "/*", methods: { GET: SIGNED_IN } },
  { file: "_app.contacts.tsx", kind: "screen", path: "/contacts", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.estimates.tsx", kind: "screen", path: "/estimates", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.packages.tsx", kind: "screen", path: "/packages", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.upload.tsx", kind: "screen", path: "/upload", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.settings.tsx", kind: "screen", path: "/settings", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  // Settings → System → Import Data's upload (multipart, bigger than a screen form).
  { file: "settings.logo.ts", kind: "screen", path: "/settings/logo", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "settings.import.ts", kind: "screen", path: "/settings/import", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.email.tsx", kind: "screen", path: "/email", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.send.tsx", kind: "screen", path: "/send", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.vendor-ai-training.tsx", kind: "screen", path: "/vendor-ai-training", methods: { GET: SIGNED_IN, POST: SIGNED_IN } },
  { file: "_app.ai-training.tsx", kind: "screen", path: "/ai-training", methods: { GET: ADMIN, POST: ADMIN } },
  { file: "_app.admin-settings.tsx", kind: "screen", path: "/admin-settings", methods: { GET: ADMIN, POST: ADMIN } },
  { file: "_app.user-management.tsx", kind: "screen", path: "/user-management", methods: { GET: ADMIN, POST: ADMIN } },
];

/**
 * The URL pattern Remix's flat routes give a file name: dots separate segments, `_name` segments are
 * pathless (layouts, `_index`), `$name` a parameter, `$` the rest, `[.]` a literal dot.
 */
export function pathOfFile(file: string) {
  const stem = file.replace(/\.(ts|tsx)$/, "");
  const segments = stem.split(/\.(?![^[]*\])/).flatMap((segment) => {
    if (segment.startsWith("_")) return [];
    if (segment === "$") return ["*"];
    if (segment.startsWith("$")) return [`:${segment.slice(1)}`];
    return [segment.replace(/\[(.*?)\]/g, "$1")];
  });
  return segments.length === 0 && stem.startsWith("_") && !stem.endsWith("_index") ? "" : `/${segments.join("/")}`;
}
