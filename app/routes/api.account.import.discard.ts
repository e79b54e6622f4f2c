import { json, type ActionFunctionArgs } from "@remix-run/node";
import { discardImport } from "~/services/import-runs.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

/** Discards the caller's interrupted import and what it stored: 404 without one, 409 while it runs or once done. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await discardImport(actor));
  },
});
