import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { contactSchema } from "~/schemas/contact";
import { requireUser } from "~/services/auth.server";
import { deleteContact, getContact, updateContact } from "~/services/contacts.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getContact(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, contactSchema);
    return json(await updateContact(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deleteContact(actor, params.id ?? "");
    return json({ message: "Contact deleted successfully" });
  },
});
