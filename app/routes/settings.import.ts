import type { ActionFunctionArgs } from "@remix-run/node";
import { uploadImportAction } from "~/screens/settings-system.server";
import { requireUser } from "~/services/auth.server";

/** Settings → System → Import Data posts the archive here (multipart; larger than a screen form may be). */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return uploadImportAction(actor, request);
}
