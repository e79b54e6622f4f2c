import { json, type ActionFunctionArgs } from "@remix-run/node";
import { vendorPackageSchema } from "~/schemas/vendor-pricing";
import { requireUser } from "~/services/auth.server";
import { updateVendorPackage, deleteVendorPackage, requireVendorWriter } from "~/services/vendors.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = requireVendorWriter(await requireUser(request));
    const input = await parseJson(request, vendorPackageSchema);
    return json(await updateVendorPackage(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deleteVendorPackage(actor, params.id ?? "");
    return json({ message: "Vendor package deleted successfully" });
  },
});
