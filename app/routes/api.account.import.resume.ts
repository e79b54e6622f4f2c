import { json, type ActionFunctionArgs } from "@remix-run/node";
import { resumeImport } from "~/services/import-runs.server";
import { requireUser } from "~/services/auth.server";
import { methods } from "~/utils/http.server";

/** Finishes the caller's interrupted import (docs/decisions/0059): 404 without one, 409 while it runs or once done. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return json(await resumeImport(actor));
  },
});
