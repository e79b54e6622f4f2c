import { json, type ActionFunctionArgs } from "@remix-run/node";
import { registrationSchema } from "~/schemas/auth";
import { createAdminAccount } from "~/services/users.server";
import { methods, parseJson } from "~/utils/http.server";
import { assertSameOrigin } from "~/utils/request.server";

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    assertSameOrigin(request);
    const input = await parseJson(request, registrationSchema);
    const user = await createAdminAccount(input);
    return json({ message: "Admin account created successfully! You can now log in.", user }, { status: 201 });
  },
});
