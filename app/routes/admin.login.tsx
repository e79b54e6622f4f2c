import type { MetaFunction } from "@remix-run/node";
import type { RouteHandle } from "~/root";
import { AuthCard } from "~/components/auth/AuthCard";
import { LoginForm } from "~/components/auth/LoginForm";
import { loginScreenAction, loginScreenHeaders } from "~/screens/login-screen.server";

export const meta: MetaFunction = () => [{ title: "Admin Login · DamageIQ" }];
export const action = loginScreenAction;
export const headers = loginScreenHeaders;
/** A plain form: the page loads no JavaScript (see RouteHandle in root.tsx). */
export const handle: RouteHandle = { scripts: false };

export default function AdminLogin() {
  return (
    <AuthCard title="Admin Login" subtitle="Sign in to manage accounts and the AI.">
      <LoginForm
        failureTitle="Login Failed"
        successMessage="Login successful! Redirecting to dashboard..."
        redirectDelayMs={1000}
        showSetupLink
      />
    </AuthCard>
  );
}
