import { describe, expect, it } from "vitest";
import { approvalOf, unknownChoices } from "./estimate-approval";
import { APPROVAL_SHEET } from "../../tests/estimate-lines";
import { readSheet, sheetTotals, type Sheet } from "./estimate-sheet";

// Approval line by line (issue 40 item 6, docs/decisions/0063): the approved total is the sheet's
// own total over the required lines and the chosen optional ones, each tax rounded once.

const sheet = (): Sheet =>
  readSheet({
    estimateSheet: APPROVAL_SHEET,
    damages: [{}],
  });

describe("approvalOf", () => {
  it("reads the optional mark a line is stored with, and only `true` as optional", () => {
    expect(sheet().lines.map((l) => l.optional ?? false)).toEqual([false, true, true]);
    expect(readSheet({ estimateSheet: { lines: [{ id: "a", optional: "yes" }] } }).lines[0].optional).toBeUndefined();
  });

  it("approves the required lines and the chosen optional ones; the total is the sheet's total over them, with their tax", () => {
    const s = sheet();
    const full = sheetTotals(s).totalCents;
    const approval = approvalOf(s, "approved", ["v-1"], full);
    expect(approval.lines.map((l) => [l.id, l.optional, l.decision])).toEqual([
      ["d0-1", false, "approved"],
      ["d0-2", true, "declined"],
      ["v-1", true, "approved"],
    ]);
    const expected = sheetTotals({ ...s, lines: s.lines.filter((l) => l.id !== "d0-2") }).totalCents;
    expect(approval.approvedTotalCents).toBe(expected);
    expect(expected).toBeLessThan(full);
    // Required only: the labour of the dent with its 4 % tax.
    expect(approvalOf(s, "approved", [], full).approvedTotalCents).toBe(12000 + 480);
    // Everything chosen: exactly the version's printed total.
    expect(approvalOf(s, "approved", ["d0-2", "v-1"], full).approvedTotalCents).toBe(full);
    expect(approval.lines[0]).toMatchObject({ label: "#1 Door dent", damage: 0, amountCents: 12000 });
  });

  it("a decline declines every line and approves no total; a TBD version approves no figure", () => {
    const s = sheet();
    const declined = approvalOf(s, "declined", ["v-1"], sheetTotals(s).totalCents);
    expect(declined.lines.every((l) => l.decision === "declined")).toBe(true);
    expect(declined.approvedTotalCents).toBeNull();
    expect(approvalOf(s, "approved", [], null).approvedTotalCents).toBeNull();
  });

  it("names the chosen ids that are not lines of this version", () => {
    expect(unknownChoices(sheet(), ["v-1", "d9-1", "d0-1"])).toEqual(["d9-1"]);
    expect(unknownChoices(sheet(), [])).toEqual([]);
  });
});
