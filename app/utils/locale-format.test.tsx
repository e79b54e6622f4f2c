import { MantineProvider } from "#mantine/core/MantineProvider/MantineProvider";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DashboardStatCards } from "~/components/dashboard/AssessmentPanels";
import type { DashboardStats } from "~/services/assessments.server";
import { I18nProvider, useFormat } from "./i18n";
import { formattersFor } from "./locale-format";

// Intl separates thousands with a narrow no-break space in French: compared as plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

const stats: DashboardStats = {
  totalAssessments: 12345,
  pendingReviews: 1234,
  totalRevenue: 1162.45,
  aiAccuracy: 94.5,
  recentAssessments: [],
  workflow: { upload: 0, analysis: 0, review: 0, complete: 0 },
};

const render = (language: string, node: React.ReactNode, timeZone = "UTC") =>
  plain(
    renderToStaticMarkup(
      <MantineProvider>
        <I18nProvider messages={{}} language={language} timeZone={timeZone}>
          {node}
        </I18nProvider>
      </MantineProvider>,
    ),
  );

function When({ iso }: { iso: string }) {
  const fmt = useFormat();
  return <span>{fmt.when(iso)}</span>;
}

describe("figures in the account's language", () => {
  it("counts and percentages: 12,345 and 94.5% in English, 12 345 and 94,5 % in French", () => {
    expect(formattersFor("en").count(12345)).toBe("12,345");
    expect(plain(formattersFor("fr").count(12345))).toBe("12 345");
    expect(formattersFor("es").percent(94.5, 1)).toBe("94.5%");
    expect(plain(formattersFor("fr").percent(94.5, 1))).toBe("94,5 %");
    expect(formattersFor("en").percent(94.5, 1)).toBe("94.5%");
  });

  it("the dashboard's figures follow the page's language, not en-US", () => {
    const fr = render("fr", <DashboardStatCards stats={stats} />);
    expect(fr).toContain(">12 345<");
    expect(fr).toContain(">1 234<");
    expect(fr).toContain(">94,5 %<");
    expect(fr).toContain("1 162 $ US");
    expect(fr).not.toContain("12,345");
    const en = render("en", <DashboardStatCards stats={stats} />);
    expect(en).toContain(">12,345<");
    expect(en).toContain(">94.5%<");
  });

  it("a date with its time is in the page's language and the server's time zone (the root loader's), whatever the browser's", () => {
    expect(render("fr", <When iso="2026-11-27T14:05:00Z" />, "UTC")).toContain("27 nov. 2026, 14 h 05");
    expect(render("es", <When iso="2026-11-27T14:05:00Z" />, "America/New_York")).toContain("27 nov 2026, 9:05");
    expect(render("en", <When iso="2026-11-27T14:05:00Z" />, "UTC")).toContain("Nov 27, 2026, 2:05");
  });
});
