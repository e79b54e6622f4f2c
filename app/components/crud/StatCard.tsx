import type { CSSProperties, ReactNode } from "react";
import { useT } from "~/utils/i18n";
import classes from "./StatCard.module.css";

/**
 * Mantine's class names for the Card, Paper, Text and ThemeIcon this card is drawn as (styled by
 * their CSS in app/styles/mantine.css); StatCard.test.ts checks them against the installed Mantine.
 * Four of these head every list: as plain elements they cost a page no component work.
 */
export const STAT_CARD_CLASSES = { card: "m_e615b15f", paper: "m_1b7284a3", text: "m_b6d8b162", themeIcon: "m_7341320d" } as const;

/** One summary figure above a list (e.g. "Total Contacts 12"). */
export function StatCard({
  label,
  value,
  icon,
  color = "indigo",
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  color?: string;
}) {
  const t = useT();
  const c = STAT_CARD_CLASSES;
  const iconColors: CSSProperties = { "--ti-bg": `var(--mantine-color-${color}-light)`, "--ti-color": `var(--mantine-color-${color}-light-color)` };
  return (
    // Compact on phones (two to a row, no icon): four figures must not push the list a screen down.
    <div className={`${c.card} mantine-Card-root ${c.paper} mantine-Paper-root ${classes.card}`} data-with-border="true" role="group" aria-label={label}>
      <div className={classes.row}>
        <div style={{ minWidth: 0 }}>
          <p className={`${c.text} mantine-Text-root ${classes.label}`}>{t(label)}</p>
          <p className={`${c.text} mantine-Text-root ${classes.value}`} data-testid="stat-value">
            {value}
          </p>
        </div>
        <div className={`${c.themeIcon} mantine-ThemeIcon-root mantine-visible-from-sm ${classes.icon}`} data-variant="light" style={iconColors}>
          {icon}
        </div>
      </div>
    </div>
  );
}
