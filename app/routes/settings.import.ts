import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { uploadImportAction } from "~/screens/settings-system.server";
import { requireUser } from "~/services/auth.server";

/** Settings → System → Import Data posts the archive here (multipart; larger than a screen form may be). */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return uploadImportAction(actor, request);
}

/** Reloading the address after an upload (no JavaScript) goes back to the System tab. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/settings?tab=system");
}
