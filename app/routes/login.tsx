import { Button, Group } from "@mantine/core";
import type { MetaFunction } from "@remix-run/node";
import { Link, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth/AuthCard";
import { LoginForm } from "~/components/auth/LoginForm";
import { screen } from "~/utils/http.server";
import { loginScreenAction, loginScreenLoader } from "~/utils/login-screen.server";

export const meta: MetaFunction = () => [{ title: "Sign in · DamageIQ" }];
export const loader = screen(loginScreenLoader);
export const action = screen(loginScreenAction);

const TABS = [
  { value: "admin", label: "Admin" },
  { value: "dealer", label: "Dealer" },
  { value: "vendor", label: "Vendor" },
] as const;

/** The combined login: the tab only changes wording; it is a query parameter so it works without JS. */
export default function Login() {
  const [params] = useSearchParams();
  const tab = TABS.find((t) => t.value === params.get("tab")) ?? TABS[0];
  const redirectTo = params.get("redirectTo");
  return (
    <AuthCard title="Sign in" subtitle="Vehicle damage assessment for dealers, shops and vendors.">
      <Group role="tablist" aria-label="Login type" grow gap={4} mb="md">
        {TABS.map((t) => {
          const search = new URLSearchParams({ tab: t.value, ...(redirectTo ? { redirectTo } : {}) });
          return (
            <Button
              key={t.value}
              component={Link}
              to={`?${search}`}
              replace
              role="tab"
              aria-selected={t.value === tab.value}
              variant={t.value === tab.value ? "filled" : "light"}
              size="sm"
            >
              {t.label}
            </Button>
          );
        })}
      </Group>
      <LoginForm
        key={tab.value}
        failureTitle={`${tab.label} Login Failed`}
        successMessage={`${tab.label} login successful! Redirecting to dashboard...`}
        redirectDelayMs={500}
        submitLabel={`Sign in as ${tab.label}`}
      />
    </AuthCard>
  );
}
