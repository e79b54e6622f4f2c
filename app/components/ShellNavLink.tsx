import { Link } from "@remix-run/react";

/**
 * Mantine's NavLink markup and class names (styled by Mantine's NavLink.css and UnstyledButton.css)
 * for the shell's plain links, without its module: that one brings Collapse and the Accordion's
 * chevron for nested links the shell does not have, on every signed-in screen.
 * ShellNavLink.test.ts checks the class names against the installed Mantine.
 */
export const NAV_LINK_CLASSES = {
  unstyledButton: "m_87cf2631",
  root: "m_f0824112",
  body: "m_f07af9d2",
  label: "m_1f6ac4c4",
  description: "m_57492dcc",
} as const;

export function ShellNavLink({ to, label, active }: { to: string; label: string; active: boolean }) {
  const c = NAV_LINK_CLASSES;
  return (
    <Link
      to={to}
      prefetch="intent"
      className={`mantine-focus-auto ${c.root} mantine-NavLink-root ${c.unstyledButton} mantine-UnstyledButton-root`}
      data-active={active || undefined}
    >
      <span className={`${c.body} mantine-NavLink-body`}>
        <span className={`${c.label} mantine-NavLink-label`}>{label}</span>
      </span>
    </Link>
  );
}
