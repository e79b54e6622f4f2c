import { OpenApiGeneratorV31, type OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { describeAdmin } from "./admin.server";
import { describeAssessments } from "./assessments.server";
import { describeContacts } from "./contacts.server";
import { describeDeletions } from "./deletions.server";
import { describeDescription } from "./description.server";
import { describeEmail } from "./email.server";
import { describeEstimateSettings } from "./estimate-settings.server";
import { describeMembers } from "./members.server";
import { newRegistry } from "./registry.server";
import { describeSession } from "./session.server";
import { describeUploads } from "./uploads.server";
import { describeVendors } from "./vendors.server";
import { describeVin } from "./vin.server";
import { describeWebhooks } from "./webhooks.server";
import { isRecord } from "~/utils/unknown-values";

/**
 * The API areas, each describing its own routes (docs/decisions/0023). A new route file under
 * app/routes/api.* is described in its area's module (or a new module added here); the suite's
 * app/openapi/coverage.test.ts fails while a route file's methods are not in the description.
 */
const AREAS: ((registry: OpenAPIRegistry) => void)[] = [
  describeSession,
  describeAdmin,
  describeContacts,
  (registry) => describeAssessments(registry, describeEmail(registry)),
  describeUploads,
  describeVendors,
  describeEstimateSettings,
  describeWebhooks,
  describeMembers,
  describeDeletions,
  describeVin,
  describeDescription,
];

let built: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

/** The OpenAPI 3.1 description of the JSON API, generated once per process from the zod schemas. */
export function openApiDocument() {
  if (built) return built;
  const registry = newRegistry();
  for (const describe of AREAS) describe(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "DamageIQ API",
      version: "1.0.0",
      description:
        "The JSON API behind the dealer, vendor and admin screens. Sign in with a session cookie (`POST /api/admin/login`) or send an API token (Settings → Security → Personal API tokens) as `Authorization: Bearer <token>`. Errors answer `{message, errors?}`; creating POSTs take an `Idempotency-Key`. Every answer carries `X-Request-Id`: the request's own when it sent one of 1–128 letters, digits and `_.:@-`, else a new one; the server's log lines for the request carry it, and a 500's body repeats it as `requestId`.",
    },
    servers: [{ url: "/" }],
  });
  // A copy (the generator's objects may be the schemas' own metadata), changed in place.
  built = structuredClone(document);
  applyZodEmailPattern(built);
  return built;
}

/**
 * zod's email check and JSON Schema's `email` format each take addresses the other refuses: the
 * generator writes only the format, so the pattern zod checks replaces it (a client following the
 * description is neither refused an address it allowed nor told that one it may send is invalid).
 */
const ZOD_EMAIL = "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$";

function applyZodEmailPattern(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(applyZodEmailPattern);
    return;
  }
  if (!isRecord(node)) return;
  for (const value of Object.values(node)) applyZodEmailPattern(value);
  // JSON Schema's `email` format also refuses what zod takes (a domain label ending in a hyphen), so a
  // client would be told an address it may send is invalid: the pattern zod checks replaces the format.
  if (node.format === "email" && node.pattern === undefined) {
    delete node.format;
    node.pattern = ZOD_EMAIL;
  }
  // A union whose branches each name their type (a form's checkbox: a boolean, or what a form posts)
  // takes none of its own: the generator copies the inner boolean's, which would refuse the strings.
  if (Array.isArray(node.anyOf) && node.type !== undefined && node.anyOf.every((branch) => branch && typeof branch === "object" && "type" in branch)) delete node.type;
}
