import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { logoAction } from "~/screens/settings-profile.server";
import { requireUser } from "~/services/auth.server";

/** Settings → Profile → Estimates posts the logo here (multipart, with JavaScript off too), or `intent=remove-logo`. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return logoAction(actor, request);
}

/** Reloading the address after an upload goes back to the Profile tab. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return redirect("/settings?tab=profile");
}
