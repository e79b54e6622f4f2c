import { json, type ActionFunctionArgs } from "@remix-run/node";
import { memberUpdateSchema } from "~/schemas/members";
import { requireUser } from "~/services/auth.server";
import { removeMember, updateMember } from "~/services/members.server";
import { methods, parseJson } from "~/utils/http.server";

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, memberUpdateSchema);
    return json(await updateMember(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await removeMember(actor, params.id ?? "");
    return json({ message: "Member removed" });
  },
});
