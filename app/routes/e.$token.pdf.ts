import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { admitPublicRequest, linkPdf } from "~/services/customer-approval.server";
import { clientOf, unavailableResponse } from "~/screens/public-estimate.server";

/** `/e/{token}/pdf`: the PDF of exactly the link's version, as stored when the link was made. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  try {
    await admitPublicRequest({ ip: clientOf(request, context.clientIp).ip, token });
    const pdf = await linkPdf(token);
    return new Response(Readable.toWeb(pdf.stream) as ReadableStream<Uint8Array>, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(pdf.bytes),
        "Content-Disposition": `inline; filename="estimate-v${pdf.version}.pdf"`,
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
