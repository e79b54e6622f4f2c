import type { z } from "zod";
import { vendorIdQuerySchema, withVendorId } from "~/schemas/vendor-pricing";
import { parseJson, validationError } from "./http.server";

/** `?vendorId=` of a vendor-keyed list (left out: the calling vendor itself). */
export function vendorIdFromQuery(request: Request) {
  const parsed = vendorIdQuerySchema.safeParse({ vendorId: new URL(request.url).searchParams.get("vendorId") ?? undefined });
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data.vendorId;
}

/** A vendor-keyed body: `{vendorId?, …fields}`, the fields parsed by the operation's schema. */
export async function parseVendorBody<S extends z.AnyZodObject>(request: Request, schema: S) {
  const { vendorId, ...input } = await parseJson(request, withVendorId(schema));
  return { vendorId: vendorId as string | undefined, input: input as z.infer<S> };
}
