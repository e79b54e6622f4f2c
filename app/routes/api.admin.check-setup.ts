import { json } from "@remix-run/node";
import { checkSetup } from "~/services/users.server";
import { api } from "~/utils/http.server";

export const loader = api(async () => json(await checkSetup(), { headers: { "Cache-Control": "no-store" } }));
