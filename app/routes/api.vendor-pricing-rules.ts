import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { pricingRuleSchema } from "~/schemas/vendor-pricing";
import { requireUser } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { listPricingRules, createPricingRule, requireVendorWriter } from "~/services/vendors.server";
import { wholeListAnswer, wholeListQuery } from "~/utils/list-headers.server";
import { api, methods } from "~/utils/http.server";
import { parseVendorBody, vendorIdFromQuery } from "~/utils/vendor-request.server";

/** `?vendorId=` names the vendor (a vendor may leave it out: its own). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return wholeListAnswer(request, await listPricingRules(actor, vendorIdFromQuery(request), wholeListQuery(request)));
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = requireVendorWriter(await requireUser(request));
    return idempotentPost(actor, request, async () => {
      const { vendorId, input } = await parseVendorBody(request, pricingRuleSchema);
      return json(await createPricingRule(actor, vendorId, input), { status: 201 });
    });
  },
});
