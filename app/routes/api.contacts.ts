import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { contactSchema } from "~/schemas/contact";
import { listQueryInput, listQuerySchema } from "~/schemas/list-query";
import { requireUser } from "~/services/auth.server";
import { createContact, listContacts } from "~/services/contacts.server";
import { idempotentPost } from "~/services/idempotency.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";

/** The caller's contacts; `?q=` searches names, email, company and phone; `?limit=&offset=` pages. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = listQuerySchema.safeParse(listQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  return json(await listContacts(actor, query.data), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, contactSchema);
      return json(await createContact(actor, input), { status: 201 });
    });
  },
});
