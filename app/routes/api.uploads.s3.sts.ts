import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { api, uploadError } from "~/utils/http.server";

/**
 * `GET s3/sts`: temporary credentials for client-side signing are not offered — the server signs
 * every request itself and never hands out its own credentials (docs/decisions/0003): 404, as for a
 * resource this server does not have (a 5xx would say the server failed).
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  throw uploadError(
    404,
    "Temporary upload credentials (STS) are not configured on this server. Use the s3/multipart and s3/params endpoints, which sign each request.",
  );
});
