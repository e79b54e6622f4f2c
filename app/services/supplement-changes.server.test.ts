import { describe, expect, it } from "vitest";
import { estimateNumber, versionLabel } from "~/schemas/estimate-sheet";
import type { SheetLine } from "~/utils/estimate-sheet";
import { lineChanges } from "./supplement-changes.server";

// Issue 40 item 5 (docs/decisions/0053): one name per version, the original's number kept with the
// version's label, and a supplement's lines compared with the version the customer saw.

const line = (id: string, over: Partial<SheetLine> = {}): SheetLine => ({
  id,
  damage: 0,
  operation: "repair",
  description: `Line ${id}`,
  labour: null,
  part: null,
  amountCents: 10000,
  note: "",
  ...over,
});

describe("naming a version", () => {
  it("labels the original Original and supplements S01, S02… S10", () => {
    expect([1, 2, 3, 11].map(versionLabel)).toEqual(["Original", "S01", "S02", "S10"]);
  });

  it("keeps the original's number (the last 8 characters of its id, upper case) and adds the supplement's label", () => {
    const root = "65a1b2c3d4e5f6a7b8c9d0e1";
    expect(estimateNumber(root, 1)).toBe("B8C9D0E1");
    expect(estimateNumber(root, 2)).toBe("B8C9D0E1-S01");
    expect(estimateNumber(root, 4)).toBe("B8C9D0E1-S03");
  });
});

describe("lineChanges", () => {
  const rate = 4000;
  it("lists the lines added, removed and changed (old → new), matched by id", () => {
    const before = { materialsRateCents: rate, lines: [line("a"), line("b"), line("c", { amountCents: 5000 })] };
    const after = {
      materialsRateCents: rate,
      lines: [line("a"), line("c", { amountCents: 7500, description: "Bumper cover" }), line("d", { operation: "sublet", description: "Wheel alignment", amountCents: 8900 })],
    };
    const changes = lineChanges(before, after);
    expect(changes.added).toEqual([{ id: "d", label: "Sublet Wheel alignment", previousLabel: null, beforeCents: null, afterCents: 8900 }]);
    expect(changes.removed).toEqual([{ id: "b", label: "Repair Line b", previousLabel: null, beforeCents: 10000, afterCents: null }]);
    expect(changes.changed).toEqual([{ id: "c", label: "Repair Bumper cover", previousLabel: "Repair Line c", beforeCents: 5000, afterCents: 7500 }]);
  });

  it("counts a line whose figures moved as changed even when its total did not, and ignores its pricing trail", () => {
    const labour = { category: "body" as const, hours: 2, rateCents: 5000 };
    const before = { materialsRateCents: 0, lines: [line("a", { labour, amountCents: 0, basis: [] })] };
    const same = { materialsRateCents: 0, lines: [line("a", { labour, amountCents: 0 })] };
    expect(lineChanges(before, same)).toEqual({ added: [], removed: [], changed: [] });
    const moved = { materialsRateCents: 0, lines: [line("a", { labour: { ...labour, hours: 1 }, amountCents: 5000 })] };
    expect(lineChanges(before, moved).changed).toEqual([{ id: "a", label: "Repair Line a", previousLabel: null, beforeCents: 10000, afterCents: 10000 }]);
  });
});
