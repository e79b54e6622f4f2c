import type { LoaderFunctionArgs } from "@remix-run/node";
import { admitPublicRequest, linkLogo } from "~/services/customer-approval.server";
import { clientOf, unavailableResponse } from "~/screens/public-estimate.server";

/** `/e/{token}/logo`: the dealer's logo on the customer's page (the one its PDF prints), read in the link owner's scope. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  try {
    await admitPublicRequest({ ip: clientOf(request, context.clientIp).ip, token });
    const logo = await linkLogo(token);
    if (!logo) return new Response("No logo", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    return new Response(new Uint8Array(logo.bytes), {
      headers: {
        "Content-Type": logo.contentType,
        "Cache-Control": "private, max-age=300",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Robots-Tag": "noindex",
      },
    });
  } catch (error) {
    return unavailableResponse(error);
  }
}
