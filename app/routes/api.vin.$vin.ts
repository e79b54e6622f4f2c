import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { decodeVin } from "~/services/vin.server";
import { api } from "~/utils/http.server";

/** A VIN's year, make and model from the vPIC data kept on this server, and whether its check digit holds. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  await requireUser(request);
  // The same VIN always decodes the same until the package's data changes: the browser may keep it an hour.
  return json(await decodeVin(params.vin ?? ""), { headers: { "Cache-Control": "private, max-age=3600" } });
});
