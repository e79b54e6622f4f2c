import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { listVendors } from "~/services/vendors.server";
import { api } from "~/utils/http.server";

/** The vendor accounts as `[{id, name, address}]`, for any signed-in caller. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  return json(await listVendors());
});
