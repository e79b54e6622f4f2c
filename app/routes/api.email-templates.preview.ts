import { json, type ActionFunctionArgs } from "@remix-run/node";
import { TEMPLATE_LIMITS, templatePreviewSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { previewEmailTemplate } from "~/services/email-templates.server";
import { methods, parseJson } from "~/utils/http.server";

/** The template dialog's live preview: `{subject, htmlContent}` rendered with sample data → `{subject, html, warnings}`. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, templatePreviewSchema, { maxBytes: TEMPLATE_LIMITS.bodyBytes });
    return json(await previewEmailTemplate(actor, input), { headers: { "Cache-Control": "no-store" } });
  },
});
