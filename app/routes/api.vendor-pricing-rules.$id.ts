import { json, type ActionFunctionArgs } from "@remix-run/node";
import { pricingRuleSchema } from "~/schemas/vendor-pricing";
import { requireUser } from "~/services/auth.server";
import { updatePricingRule, deletePricingRule, requireVendorWriter } from "~/services/vendors.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = requireVendorWriter(await requireUser(request));
    const input = await parseJson(request, pricingRuleSchema);
    return json(await updatePricingRule(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deletePricingRule(actor, params.id ?? "");
    return json({ message: "Pricing rule deleted successfully" });
  },
});
