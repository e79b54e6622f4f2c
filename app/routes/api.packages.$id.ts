import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { packageSchema } from "~/schemas/package";
import { requireUser } from "~/services/auth.server";
import { deletePackage, getPackage, updatePackage } from "~/services/packages.server";
import { api, methods, parseJson } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await getPackage(actor, params.id ?? ""), { headers: { "Cache-Control": "no-store" } });
});

export const action = methods({
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const input = await parseJson(request, packageSchema);
    return json(await updatePackage(actor, params.id ?? "", input));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await deletePackage(actor, params.id ?? "");
    return json({ message: "Package deleted successfully" });
  },
});
