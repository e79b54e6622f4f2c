import { Box } from "#mantine/core/Box/Box";
import { LinkTabs } from "~/components/LinkTabs";
import type { MetaFunction } from "@remix-run/node";
import type { RouteHandle } from "~/root";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth/AuthCard";
import { LoginForm } from "~/components/auth/LoginForm";
import { loginScreenAction, loginScreenHeaders, loginScreenLoader } from "~/screens/login-screen.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { pageTitle, useT } from "~/utils/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Sign in") }];
export const loader = loginScreenLoader;
export const action = loginScreenAction;
export const headers = loginScreenHeaders;
/** A plain form: the page loads no JavaScript (see RouteHandle in root.tsx). */
export const handle: RouteHandle = { scripts: false };

const TABS = [
  { value: "admin", label: "Admin" },
  { value: "dealer", label: "Dealer" },
  { value: "vendor", label: "Vendor" },
] as const;

/**
 * The combined login: the tab only changes wording; it is a query parameter so it works without JS.
 * Without one it opens on the tab of this browser's last sign-in (a cookie), else Admin.
 */
export default function Login() {
  const t = useT();
  const [params] = useSearchParams();
  const { lastTab } = useLoaderData<typeof loginScreenLoader>();
  const tab = TABS.find((t) => t.value === (params.get("tab") ?? lastTab)) ?? TABS[0];
  // The tabs carry only a path of this site (never a crafted one) on to the next page.
  const redirectTo = safeRedirect(params.get("redirectTo"), "");
  return (
    <AuthCard title={t("Sign in")} subtitle={t("Vehicle damage assessment for dealers, shops and vendors.")}>
      <Box mb="md">
        <LinkTabs
          tabs={TABS}
          active={tab.value}
          label={t("Login type")}
          grow
          hrefFor={(value) => `?${new URLSearchParams({ tab: value, ...(redirectTo ? { redirectTo } : {}) })}`}
        />
      </Box>
      <LoginForm
        failureTitle={t("{{label}} Login Failed", { label: tab.label })}
        successMessage={t("{{label}} login successful! Redirecting to dashboard...", { label: tab.label })}
        redirectDelayMs={500}
        submitLabel={t("Sign in as {{label}}", { label: tab.label })}
        tab={tab.value}
      />
    </AuthCard>
  );
}
