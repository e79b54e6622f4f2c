import { z } from "zod";
import { cursorParam, listQuerySchema } from "./list-query";

/**
 * The kinds of record a sync can learn the deletion of (docs/decisions/0056), named as the API's
 * lists name them. A superseded assessment version is not deleted: its newer version lists it.
 */
export const DELETED_KINDS = [
  "assessment",
  "contact",
  "package",
  "emailTemplate",
  "webhookEndpoint",
  "apiToken",
  "pricingRule",
  "vendorPackage",
  "trainingItem",
  "user",
] as const;
export type DeletedKind = (typeof DELETED_KINDS)[number];

const { limit, updatedSince } = listQuerySchema.shape;

/**
 * `GET /api/deletions?updatedSince=&limit=&cursor=`: the deletions a sync has not seen, oldest first.
 * Always a sync: without `updatedSince`, from the first deletion kept.
 */
export const deletionsQuerySchema = z.object({
  updatedSince,
  limit,
  // Only a sync's cursor ("changed") is a position in this list.
  cursor: cursorParam((cursor) => cursor.direction === "changed"),
});
export type DeletionsQuery = z.infer<typeof deletionsQuerySchema>;

export const deletionsQueryInput = (url: URL) => ({
  updatedSince: url.searchParams.get("updatedSince") ?? undefined,
  limit: url.searchParams.get("limit") ?? undefined,
  cursor: url.searchParams.get("cursor") ?? undefined,
});
