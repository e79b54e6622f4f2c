import { z } from "zod";
import { CURSOR_INVALID, decodeCursor, type ListCursor } from "./list-cursor";
import { listQuerySchema } from "./list-query";

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
  cursor: z
    .string({ invalid_type_error: CURSOR_INVALID })
    .optional()
    .transform((text, ctx): ListCursor | undefined => {
      if (text === undefined || text === "") return undefined;
      const cursor = decodeCursor(text);
      // Only a sync's cursor ("changed") is a position in this list.
      if (!cursor || cursor.direction !== "changed") ctx.addIssue({ code: z.ZodIssueCode.custom, message: CURSOR_INVALID });
      return cursor ?? undefined;
    }),
});
export type DeletionsQuery = z.infer<typeof deletionsQuerySchema>;

export const deletionsQueryInput = (url: URL) => ({
  updatedSince: url.searchParams.get("updatedSince") ?? undefined,
  limit: url.searchParams.get("limit") ?? undefined,
  cursor: url.searchParams.get("cursor") ?? undefined,
});
