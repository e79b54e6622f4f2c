import type { LoaderFunctionArgs } from "@remix-run/node";
import { admitPublicRequest, linkPdf } from "~/services/customer-approval.server";
import { contentDisposition } from "~/utils/content-disposition";
import { clientOf, unavailableResponse } from "~/screens/public-estimate.server";
import { webStreamOf } from "~/utils/web-streams.server";

/** `/e/{token}/pdf`: the PDF of exactly the link's version, as stored when the link was made. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  try {
    await admitPublicRequest({ ip: clientOf(request, context.clientIp).ip, token });
    const pdf = await linkPdf(token);
    return new Response(webStreamOf(pdf.stream), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(pdf.bytes),
        // Named as the dealer's copy is (docs/decisions/0053): the estimate's number and version label.
        "Content-Disposition": contentDisposition(`estimate-${pdf.number}.pdf`, "inline"),
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
        "X-Robots-Tag": "noindex, nofollow",
        // The SHA-256 a decision on this link records.
        "X-Content-SHA256": pdf.sha256,
      },
    });
  } catch (error) {
    return unavailableResponse(error, request);
  }
}
