import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShellLayout } from "~/components/AppShellLayout";
import { requireUser } from "~/services/auth.server";

/** Every signed-in screen lives under this layout; signed-out visitors go to /login. */
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return json({
    user: {
      id: actor.id,
      firstName: actor.user.firstName,
      lastName: actor.user.lastName,
      role: actor.role,
      realRole: actor.realRole,
    },
  });
}

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <AppShellLayout user={user}>
      <Outlet />
    </AppShellLayout>
  );
}
