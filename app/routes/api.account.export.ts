import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportArchive } from "~/services/account-export.server";
import { requireUser } from "~/services/auth.server";
import { api } from "~/utils/http.server";
import { webStreamOf } from "~/utils/web-streams.server";

/** Settings → System → Export Data: the account's data as a streamed tar.gz (one ndjson file per collection). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const { stream, filename } = exportArchive(actor);
  return new Response(webStreamOf(stream), {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
});
