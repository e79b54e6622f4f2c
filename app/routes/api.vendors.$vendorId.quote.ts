import { json, type ActionFunctionArgs } from "@remix-run/node";
import { quoteRequestSchema } from "~/schemas/vendor-pricing";
import { requireUser } from "~/services/auth.server";
import { quoteForVendor } from "~/services/vendors.server";
import { methods, parseJson } from "~/utils/http.server";

/** The pricing engine's line items and total for `{damages, vehicleMake?, vehicleYear?, date?}`. */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    await requireUser(request);
    const body = await parseJson(request, quoteRequestSchema);
    return json(await quoteForVendor(params.vendorId ?? "", body));
  },
});
