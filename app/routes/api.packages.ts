import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { packageSchema } from "~/schemas/package";
import { listQueryInput, listQuerySchema } from "~/schemas/list-query";
import { requireUser } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createPackage, listPackagesPage } from "~/services/packages.server";
import { listHeaders } from "~/utils/list-headers.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";

/** The caller's packages; `?q=` searches name and description; `?limit=&offset=` or `?limit=&cursor=` pages (the next page's cursor in `Link`). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const query = listQuerySchema.safeParse(listQueryInput(new URL(request.url)));
  if (!query.success) throw validationError(query.error);
  const { items, next, total } = await listPackagesPage(actor, query.data, { total: true });
  return json(items, { headers: { "Cache-Control": "no-store", ...listHeaders(request.url, { next, total }) } });
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, packageSchema);
      return json(await createPackage(actor, input), { status: 201 });
    });
  },
});
