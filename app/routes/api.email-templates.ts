import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { emailTemplateSchema, TEMPLATE_LIMITS } from "~/schemas/email";
import { listQueryInput, listQuerySchema } from "~/schemas/list-query";
import { requireUser } from "~/services/auth.server";
import { createEmailTemplate, listEmailTemplatesPage } from "~/services/email-templates.server";
import { idempotentPost } from "~/services/idempotency.server";
import { listHeaders } from "~/utils/list-headers.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";

/** The caller's templates; `?q=` searches name and subject; `?limit=&offset=` or `?limit=&cursor=` pages (the next page's cursor in `Link`). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = listQuerySchema.safeParse(listQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  const { items, next, total } = await listEmailTemplatesPage(actor, query.data, { total: true });
  return json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next, total }) } });
});

/** 201 with the template and `warnings` (unknown variables); 400 when it does not compile; 413 past the size limit. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, emailTemplateSchema, { maxBytes: TEMPLATE_LIMITS.bodyBytes });
      const { template, warnings } = await createEmailTemplate(actor, input);
      return json({ ...template, warnings }, { status: 201 });
    });
  },
});
