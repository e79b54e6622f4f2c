import type { MetaFunction } from "@remix-run/node";
import { AuthCard } from "~/components/auth/AuthCard";
import { LoginForm } from "~/components/auth/LoginForm";
import { loginScreenAction, loginScreenHeaders } from "~/screens/login-screen.server";

export const meta: MetaFunction = () => [{ title: "Admin Login · DamageIQ" }];
export const action = loginScreenAction;
export const headers = loginScreenHeaders;

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
