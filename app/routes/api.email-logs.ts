import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listQueryInput, listQuerySchema } from "~/schemas/list-query";
import { requireUser } from "~/services/auth.server";
import { listEmailLogs } from "~/services/email-logs.server";
import { api, validationError } from "~/utils/http.server";

/** The caller's email logs, newest first; `?q=` searches recipient, subject and assessment; `?limit=&offset=` pages. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = listQuerySchema.safeParse(listQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  return json(await listEmailLogs(actor, query.data), { headers: { "Cache-Control": "no-store" } });
});
