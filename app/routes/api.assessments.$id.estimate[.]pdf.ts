import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { estimatePdf } from "~/services/estimate-pdf.server";
import { api } from "~/utils/http.server";

/** The estimate as a PDF (session or Bearer token), `?lang=en|es|fr` to print it in another language; 404 for another account's. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return estimatePdf(actor, params.id ?? "", new URL(request.url).searchParams.get("lang"));
});
