import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { trainingItemSchema, trainingListQuerySchema } from "~/schemas/training";
import { requireAdmin } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createTrainingItem, listTrainingItemsPage } from "~/services/training.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";
import { listHeaders } from "~/utils/list-headers.server";

/** Every training item, newest first; `?damageType=&severity=&isVerified=` filter (each left out for 'all'); `?limit=&cursor=` pages (the next page's cursor in `Link`); `?updatedSince=` syncs. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  const get = (key: string) => new URL(request.url).searchParams.get(key) ?? undefined;
  const query = trainingListQuerySchema.safeParse({
    damageType: get("damageType"),
    severity: get("severity"),
    isVerified: get("isVerified"),
    limit: get("limit"),
    cursor: get("cursor"),
    updatedSince: get("updatedSince"),
  });
  if (!query.success) throw validationError(query.error);
  const { limit, cursor, updatedSince, ...filter } = query.data;
  const { items, next, total } = await listTrainingItemsPage(actor, { filter, limit, cursor, since: updatedSince }, { total: true });
  return json(items, { headers: listHeaders(request.url, { next, total }) });
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, trainingItemSchema);
      return json(await createTrainingItem(actor, input), { status: 201 });
    });
  },
});
