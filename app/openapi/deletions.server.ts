import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { DELETED_KINDS, deletionsQuerySchema } from "~/schemas/deletions";
import { ApiArea, isoDate, json, listPageHeaders, objectIdText, record, z } from "./registry.server";

/** The deletions a sync cannot see in the lists (docs/decisions/0056). */
export function describeDeletions(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Sync");
  const Deletion = area.schema(
    "Deletion",
    record({
      kind: z.enum(DELETED_KINDS).openapi({ description: "The list the record was in: `assessment` (/api/assessments), `contact`, `package`, `emailTemplate`, `webhookEndpoint`, `apiToken` (/api/auth/tokens), `pricingRule`, `vendorPackage`, `trainingItem` (/api/admin/ai-training-data), `user` (/api/admin/users)." }),
      id: objectIdText,
      deletedAt: isoDate,
    }),
  );
  area.describe({
    method: "get", path: "/api/deletions", operationId: "listDeletions", auth: "user",
    summary: "List deleted records (for a sync)",
    description:
      "The records deleted in the caller's scope (an admin's: every account's, AI training items and user accounts) at or after `updatedSince`, oldest first, paged like a list's sync (`limit`, then `X-Next-Cursor`). A client that syncs a list with `updatedSince` reads this with the same time and removes what it lists. Without `updatedSince`, every deletion kept. A superseded assessment version is not deleted: its newer version arrives in the list and names it among its earlier versions.",
    query: deletionsQuerySchema,
    responses: { 200: json("The deletions", z.array(Deletion), { headers: listPageHeaders }) },
  });
}
