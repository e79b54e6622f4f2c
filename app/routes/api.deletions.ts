import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { deletionsQueryInput, deletionsQuerySchema } from "~/schemas/deletions";
import { requireUser } from "~/services/auth.server";
import { listDeletionsPage } from "~/services/deletions.server";
import { api, validationError } from "~/utils/http.server";
import { listHeaders } from "~/utils/list-headers.server";

/** What a sync cannot see in the lists: the caller's records deleted since `?updatedSince=`, oldest first (`?limit=&cursor=` pages). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = deletionsQuerySchema.safeParse(deletionsQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  const { items, next, total } = await listDeletionsPage(actor, query.data);
  return json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next, total }) } });
});
