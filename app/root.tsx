import { cssBundleHref } from "@remix-run/css-bundle";
import { ColorSchemeScript } from "#mantine/core/MantineProvider/ColorSchemeScript/ColorSchemeScript";
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
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorCard } from "~/components/ErrorCard";
import { ThemeProvider } from "~/components/ThemeProvider";
import { theme } from "~/theme";
import { ToastHost } from "~/components/ToastHost";
import { clientMessages, isLanguage, languageFromHeader } from "~/services/i18n.server";
import { commitSession, requestSession } from "~/services/session.server";
import { pagePath, RESTORED_TOAST, RESUME_MS } from "~/schemas/resume";
import { serverColorScheme, type ColorSchemeChoice } from "~/services/appearance.server";
import { I18nProvider, translate } from "~/utils/i18n";
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
export const meta: MetaFunction = ({ data }) => [
  { title: translate((data as { messages?: Record<string, string> } | undefined)?.messages ?? {}, "DamageIQ — AI vehicle damage assessment") },
];

/**
 * Every page's appearance and language, and the flashed toast (read, so cleared). A signed-in
 * account's theme and language come from its session (copied there from the user at sign-in and on
 * every change), so no extra lookup; an anonymous visitor gets its browser's light or dark
 * preference and the language of its Accept-Language header.
 */
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export async function loader({ request }: LoaderFunctionArgs) {
  const session = request.headers.get("Cookie") ? await requestSession(request) : null;
  const signedIn = Boolean(session?.get("userId"));
  const stored = session?.get("language");
  const lang = signedIn && isLanguage(stored) ? stored : languageFromHeader(request.headers.get("Accept-Language"));
  // The public pages follow the browser's preference; an account's pages its own choice.
  const choice: ColorSchemeChoice = signedIn ? session?.get("theme") || "light" : "auto";
  const appearance = {
    lang,
    theme: choice,
    colorScheme: serverColorScheme(choice, request.headers.get("Sec-CH-Prefers-Color-Scheme")),
    messages: clientMessages(lang),
    // Dates with their time read in the server's zone on the server and in the browser alike.
    timeZone: SERVER_TIME_ZONE,
  };
  // Typed work of a form posted after the session ended: for its page, right after the sign-in.
  // Other pages (the sign-in's own answer, on the way there) leave it; shown once, or gone when stale.
  const resumed = session?.get("resumed");
  const resume = resumed && resumed.path === pagePath(new URL(request.url)) ? resumed : null;
  const spent = resume || (resumed && Date.now() - resumed.at > RESUME_MS);
  if (spent) session?.unset("resumed");
  // Restored work says so (it was not sent), in place of the sign-in's own greeting (read, so cleared).
  const flashed = session?.get("toast");
  const toast = resume ? RESTORED_TOAST : flashed;
  if (!session || (!toast && !spent)) return json({ toast: null, resume: null, ...appearance });
  // The browser's translation (i18n.tsx): it also reads messages composed with their values.
  const t = (text: string) => translate(appearance.messages, text, toast?.vars);
  return json(
    { toast: toast ? { ...toast, title: t(toast.title), message: t(toast.message), id: `${Date.now()}` } : null, resume, ...appearance },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}

/**
 * A route whose page works as plain HTML says so with `export const handle = { scripts: false }`
 * (the sign-in screens): its document then loads no JavaScript at all (bench/js-budget.mjs reads
 * the same line). Reached by a client-side navigation it still renders with React.
 */
export type RouteHandle = { scripts?: boolean };

const FALLBACK = { lang: "en", theme: "light", colorScheme: "light", messages: {}, timeZone: "UTC" } as const;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const matches = useMatches();
  const scripts = !matches.some((match) => (match.handle as RouteHandle | undefined)?.scripts === false);
  // The screens inside the signed-in shell (routes/_app…) are an account's own pages.
  const accountPage = matches.some((match) => match.id.startsWith("routes/_app"));
  // The error page renders this too, maybe without the loader's data.
  const data = useRouteLoaderData<typeof loader>("root") ?? FALLBACK;
  const fixed = data.theme === "auto" ? undefined : data.colorScheme;
  return (
    <html lang={data.lang} {...mantineHtmlProps} data-mantine-color-scheme={data.colorScheme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content="DamageIQ: photograph a damaged vehicle, get an AI damage assessment and a cost estimate, and email it to your customer." />
        {/* An account's pages are nobody's search result; the sign-in pages may be. */}
        {accountPage ? <meta name="robots" content="noindex, nofollow" /> : null}
        {/* Lets Chromium tell the server the system theme, so "Auto" renders right without JavaScript. */}
        <meta httpEquiv="Accept-CH" content="Sec-CH-Prefers-Color-Scheme" />
        <Meta />
        <Links />
        <ColorSchemeScript defaultColorScheme={data.theme} forceColorScheme={fixed} localStorageKey="damageiq-color-scheme" nonce={nonce} />
      </head>
      <body>
        <ThemeProvider theme={theme} colorScheme={data.theme} forceColorScheme={fixed}>
          <I18nProvider messages={data.messages} language={data.lang} timeZone={data.timeZone}>
            <ToastHost />
            {children}
          </I18nProvider>
        </ThemeProvider>
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
