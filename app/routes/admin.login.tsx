import type { MetaFunction } from "@remix-run/node";
import type { RouteHandle } from "~/root";
import { AuthCard } from "~/components/auth/AuthCard";
import { LoginForm } from "~/components/auth/LoginForm";
import { loginScreenAction, loginScreenHeaders } from "~/screens/login-screen.server";
import { pageTitle, useT } from "~/utils/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "Admin Login") }];
export const action = loginScreenAction;
export const headers = loginScreenHeaders;
/** A plain form: the page loads no JavaScript (see RouteHandle in root.tsx). */
export const handle: RouteHandle = { scripts: false };

export default function AdminLogin() {
  const t = useT();
  return (
    <AuthCard title={t("Admin Login")} subtitle={t("Sign in to manage accounts and the AI.")}>
      <LoginForm
        failureTitle={t("Login Failed")}
        successMessage={t("Login successful! Redirecting to dashboard...")}
        redirectDelayMs={1000}
        showSetupLink
      />
    </AuthCard>
  );
}
