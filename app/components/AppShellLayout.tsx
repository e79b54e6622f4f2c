import { AppShell } from "#mantine/components/AppShell/AppShell";
import { Badge } from "#mantine/components/Badge/Badge";
import { Burger } from "#mantine/components/Burger/Burger";
import { Button } from "#mantine/components/Button/Button";
import { Box } from "#mantine/core/Box/Box";
import { Group } from "#mantine/components/Group/Group";
import { Text } from "#mantine/components/Text/Text";
import { Title } from "#mantine/components/Title/Title";
import { useDisclosure } from "@mantine/hooks";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type CSSProperties, type ReactNode } from "react";
import { useT } from "~/utils/i18n";
import { FlashToast } from "./FlashToast";
import { LoadingScreen } from "./LoadingScreen";
import { PreviewBanner } from "./RolePreview";
import { roleLabel } from "~/schemas/roles";
import { ShellNavLink } from "./ShellNavLink";
import { useInPageNavigation } from "./crud/in-page";
import { ListIconSprite } from "./crud/icons";
import a11y from "./a11y.module.css";
import cards from "./crud/cards.module.css";

export interface ShellUser {
  firstName: string;
  lastName: string;
  role: "admin" | "dealer" | "vendor";
  realRole: "admin" | "dealer" | "vendor";
}

const MAIN_NAV = [
  { to: "/", label: "Dashboard" },
  { to: "/upload", label: "Upload & Assess" },
  { to: "/estimates", label: "Estimates" },
  { to: "/contacts", label: "Contacts" },
  { to: "/packages", label: "Packages" },
  { to: "/email", label: "Email Center" },
  { to: "/settings", label: "Settings" },
];

const NEURAL_CORE_NAV = [
  { to: "/user-management", label: "User Management" },
  { to: "/ai-training", label: "AI Training" },
  { to: "/vendor-ai-training", label: "Vendor AI Training" },
  { to: "/admin-settings", label: "Admin Settings" },
];

/**
 * Mantine's class names for the Group, Text and Anchor drawn as plain elements below (styled by their
 * CSS in app/styles/mantine.css): the shell is on every page, and these were a dozen components'
 * work on each. AppShellLayout.test.ts checks them against the installed Mantine.
 */
export const SHELL_CLASSES = { group: "m_4081bf90", text: "m_b6d8b162", anchor: "m_849cf0da" } as const;
const c = SHELL_CLASSES;
const group = (gap: string, wrap: "wrap" | "nowrap"): CSSProperties => ({ "--group-gap": `var(--mantine-spacing-${gap})`, "--group-align": "center", "--group-justify": "flex-start", "--group-wrap": wrap });
const smallText: CSSProperties = { "--text-fz": "var(--mantine-font-size-sm)", "--text-lh": "var(--mantine-line-height-sm)" };

/** The user lists (User Management, Admin Settings → Users): their loading says so (spec part 1, empty states). */
const isUserList = ({ pathname, search }: { pathname: string; search: string }) =>
  pathname === "/user-management" || (pathname === "/admin-settings" && new URLSearchParams(search).get("tab") === "users");

/**
 * What the full-screen spinner says while a client-side navigation loads, or null for none: another
 * screen, or a user list (also a tab of the same screen, whose table is not on the page yet).
 */
export function pendingText(current: { pathname: string; search: string }, next: { pathname: string; search: string } | undefined) {
  if (!next) return null;
  if (isUserList(next) && !isUserList(current)) return "Loading users...";
  return next.pathname !== current.pathname ? "Loading..." : null;
}

export const initials = (first: string, last: string) =>
  `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || "?";

function NavItems({ items, pathname }: { items: typeof MAIN_NAV; pathname: string }) {
  const t = useT();
  return items.map((item) => (
    <ShellNavLink
      key={item.to}
      to={item.to}
      label={t(item.label)}
      active={item.to === "/" ? pathname === "/" : pathname.startsWith(item.to)}
    />
  ));
}

/**
 * On a phone the sidebar opens from the burger, which needs JavaScript; without it the same links
 * (and Logout) sit in a row above the screen instead.
 */
function NoScriptNav({ user }: { user: ShellUser }) {
  const t = useT();
  const items = user.role === "admin" ? [...MAIN_NAV, ...NEURAL_CORE_NAV] : MAIN_NAV;
  return (
    <noscript>
      <nav className="mantine-hidden-from-sm" aria-label={t("Menu")} style={{ marginBottom: "var(--mantine-spacing-md)" }}>
        <div className={`${c.group} mantine-Group-root`} style={group("xs", "wrap")}>
          {items.map((item) => (
            <a key={item.to} href={item.to} className={`mantine-focus-auto ${c.anchor} ${c.text} mantine-Text-root mantine-Anchor-root`} data-size="sm" data-underline="hover" style={smallText}>
              {t(item.label)}
            </a>
          ))}
          <Form method="post" action="/logout">
            <Button type="submit" variant="subtle" color="gray" size="compact-sm">
              {t("Logout")}
            </Button>
          </Form>
        </div>
      </nav>
    </noscript>
  );
}

/** The sidebar shell around every signed-in screen. */
export function AppShellLayout({ user, children }: { user: ShellUser; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const burger = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const { pathname } = location;
  const navigation = useNavigation();
  const pending = navigation.state === "loading" ? pendingText(location, navigation.location) : null;
  const t = useT();
  const inPage = useInPageNavigation();
  // The phone menu closes with Escape, focus back on the burger.
  useEffect(() => {
    if (!opened) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      close();
      burger.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [opened, close]);
  return (
    <AppShell
      header={{ height: 56, collapsed: false }}
      navbar={{ width: 260, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <ListIconSprite />
      <a href="#main-content" className={a11y.skipLink}>
        {t("Skip to content")}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="xs">
            <Burger
              ref={burger}
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t("Toggle navigation")}
              aria-expanded={opened}
              aria-controls="main-navigation"
            />
            <Title order={2} size="h4">
              DamageIQ
            </Title>
            <Badge variant="light" size="sm">
              {t("AI Damage Assessment")}
            </Badge>
          </Group>

        </Group>
      </AppShell.Header>
      {/* data-opened: a closed phone menu is hidden from Tab and screen readers too (a11y.module.css), JS or not. */}
      <AppShell.Navbar p="sm" aria-label={t("Main navigation")} id="main-navigation" className={a11y.navbar} data-opened={opened || undefined}>
        <AppShell.Section grow>
          <NavItems items={MAIN_NAV} pathname={pathname} />
          {user.role === "admin" && (
            <Box mt="md">
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                {t("Neural Core")}
              </Text>
              <NavItems items={NEURAL_CORE_NAV} pathname={pathname} />
            </Box>
          )}
        </AppShell.Section>
        <AppShell.Section>
          <div className={`${c.group} mantine-Group-root`} style={{ ...group("sm", "nowrap"), padding: "var(--mantine-spacing-xs)" }}>
            {/* Mantine's Avatar look (light indigo circle) without its module, on every screen. */}
            <div className={cards.avatar}>{initials(user.firstName, user.lastName)}</div>
            <div style={{ display: "flex", flexDirection: "column", flex: 1, minWidth: 0 }}>
              <p className={`${c.text} mantine-Text-root`} data-size="sm" data-truncate="end" style={{ ...smallText, fontWeight: 600 }}>
                {user.firstName} {user.lastName}
              </p>
              <p
                className={`${c.text} mantine-Text-root`}
                data-size="xs"
                data-testid="role-label"
                style={{ "--text-fz": "var(--mantine-font-size-xs)", "--text-lh": "var(--mantine-line-height-xs)", color: "var(--mantine-color-dimmed)" }}
              >
                {t(roleLabel(user.role))}
              </p>
            </div>
          </div>
          <Form method="post" action="/logout">
            <Button type="submit" variant="light" color="gray" fullWidth size="xs">
              {t("Logout")}
            </Button>
          </Form>
        </AppShell.Section>
      </AppShell.Navbar>
      {pending && <LoadingScreen text={pending} />}
      <AppShell.Main id="main-content" tabIndex={-1} className={a11y.main} onClick={inPage.onClick} onSubmit={inPage.onSubmit}>
        <NoScriptNav user={user} />
        <FlashToast />
        {user.realRole === "admin" && user.role !== "admin" && <PreviewBanner role={user.role} />}
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
