import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { inviteSchema } from "~/schemas/members";
import { requireUser } from "~/services/auth.server";
import { inviteMember, listMembers } from "~/services/members.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await listMembers(actor), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, inviteSchema);
    return json(await inviteMember(actor, input, request), { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
