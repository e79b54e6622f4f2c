import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { emailTemplateSchema, TEMPLATE_LIMITS } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { deleteEmailTemplate, getEmailTemplate, updateEmailTemplate } from "~/services/email-templates.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getEmailTemplate(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, emailTemplateSchema, { maxBytes: TEMPLATE_LIMITS.bodyBytes });
    const { template, warnings } = await updateEmailTemplate(actor, params.id ?? "", input);
    return json({ ...template, warnings });
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deleteEmailTemplate(actor, params.id ?? "");
    return json({ message: "Template deleted successfully" });
  },
});
