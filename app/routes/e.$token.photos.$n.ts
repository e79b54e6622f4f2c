import type { LoaderFunctionArgs } from "@remix-run/node";
import { admitPublicRequest, linkPhoto } from "~/services/customer-approval.server";
import { clientOf, unavailableResponse } from "~/screens/public-estimate.server";

/**
 * `/e/{token}/photos/{n}`: the n-th photo of the link's version (a small JPEG), read in the link
 * owner's scope; nothing else can be named here.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  try {
    await admitPublicRequest({ ip: clientOf(request, context.clientIp).ip, token });
    const n = /^\d{1,3}$/.test(params.n ?? "") ? Number(params.n) : -1;
    const bytes = n >= 0 ? await linkPhoto(token, n) : null;
    if (!bytes) return new Response("Photo not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    return new Response(new Uint8Array(bytes), {
      headers: { "Content-Type": "image/jpeg", "Cache-Control": "private, max-age=300", "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex" },
    });
  } catch (error) {
    return unavailableResponse(error);
  }
}
