import { randomBytes } from "node:crypto";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { AppShellLayout } from "~/components/AppShellLayout";
import { RouteErrorCard } from "~/components/ErrorCard";
import { requireUser } from "~/services/auth.server";

/** Every signed-in screen lives under this layout; signed-out visitors go to /login. */
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireUser(request);
  return json({
    user: {
      id: actor.id,
      // A member is shown as themself (issue 44).
      firstName: actor.member ? actor.member.name : actor.user.firstName,
      lastName: actor.member ? "" : actor.user.lastName,
      role: actor.role,
      realRole: actor.realRole,
    },
    // Send forms name their send with it (SendKeyField); this loader runs again after every form post.
    sendKey: randomBytes(9).toString("base64url"),
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

/**
 * A screen that fails (403 for a role, 404, 503 while the database is away) keeps the shell, so
 * the menu is still there to go elsewhere. If this layout's own loader failed there is no user to
 * show it for, and the card stands alone.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  if (!data) return <RouteErrorCard error={error} />;
  return (
    <AppShellLayout user={data.user}>
      <RouteErrorCard error={error} />
    </AppShellLayout>
  );
}
