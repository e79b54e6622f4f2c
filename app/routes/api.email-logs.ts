import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listQueryInput, listQuerySchema } from "~/schemas/list-query";
import { requireUser } from "~/services/auth.server";
import { listEmailLogsPage } from "~/services/email-logs.server";
import { listHeaders } from "~/utils/list-headers.server";
import { api, validationError } from "~/utils/http.server";

/** The caller's email logs, newest first; `?q=` searches recipient, subject and assessment; `?limit=&offset=` or `?limit=&cursor=` pages (the next page's cursor in `Link`). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = listQuerySchema.safeParse(listQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  const { items, next, total } = await listEmailLogsPage(actor, query.data, { total: true });
  return json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next, total }) } });
});
