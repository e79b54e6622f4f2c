import { cssBundleHref } from "@remix-run/css-bundle";
import { ColorSchemeScript } from "#mantine/core/MantineProvider/ColorSchemeScript/ColorSchemeScript";
import { MantineProvider } from "#mantine/core/MantineProvider/MantineProvider";
import { mantineHtmlProps } from "#mantine/core/MantineProvider/mantine-html-props";
import mantineCoreStyles from "~/styles/mantine.css";
import mantineNotificationStyles from "@mantine/notifications/styles.css";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorCard } from "~/components/ErrorCard";
import { ToastHost } from "~/components/ToastHost";
import { commitSession, getSession } from "~/services/session.server";
import { theme } from "~/theme";
import { useNonce } from "~/utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: mantineCoreStyles },
  { rel: "stylesheet", href: mantineNotificationStyles },
  // Our CSS modules, after Mantine's so they can use its variables and win ties.
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// Only the title: a route's `meta` replaces this one (Remix 2 does not merge), so what every page
// needs (charset, viewport) is written into the document head by Layout.
export const meta: MetaFunction = () => [{ title: "DamageIQ — AI vehicle damage assessment" }];

/** Reads (and so clears) a flashed toast; every page shows it. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!request.headers.get("Cookie")) return json({ toast: null });
  const session = await getSession(request);
  const toast = session.get("toast");
  if (!toast) return json({ toast: null });
  return json(
    { toast: { ...toast, id: `${Date.now()}` } },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}

/**
 * A route whose page works as plain HTML says so with `export const handle = { scripts: false }`
 * (the sign-in screens): its document then loads no JavaScript at all (bench/js-budget.mjs reads
 * the same line). Reached by a client-side navigation it still renders with React.
 */
export type RouteHandle = { scripts?: boolean };

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const scripts = !useMatches().some((match) => (match.handle as RouteHandle | undefined)?.scripts === false);
  return (
    <html lang="en" {...mantineHtmlProps} data-mantine-color-scheme="light">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <ColorSchemeScript defaultColorScheme="light" nonce={nonce} />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <ToastHost />
          {children}
        </MantineProvider>
        {scripts && <ScrollRestoration nonce={nonce} />}
        {scripts && <Scripts nonce={nonce} />}
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <RouteErrorCard error={useRouteError()} />;
}
