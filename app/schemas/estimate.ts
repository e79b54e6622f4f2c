import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "./damage";
import { amountField, enumField, formNumber, wholeField } from "./number-fields";
import { optionalString } from "./text-fields";
import { MAX_DAMAGES, REASON_MAX } from "./estimate-limits";
import { MAX_SHEET_LINES, sheetFields, sheetLineSchema, type SheetLineInput } from "./estimate-sheet";

export { MAX_DAMAGES, REASON_MAX };

export const REASON_REQUIRED_MESSAGE = "A reason is required when the total changes";

export const CONTACT_NOT_FOUND = "Contact not found";

/**
 * Edit Estimate saved over a version its author never saw: refused, nothing saved. What the form
 * shows (with what was typed kept): the audit entries written since it was read and the total now.
 */
export interface EstimateConflict {
  /** `at`: the entry's time (ISO); the screen shows it in the account's language and the server's time zone. */
  entries: { at: string; byName: string; action: string; note: string | null; changes: string[] }[];
  estimatedCost: number | null;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/**
 * One damage and its line. `line`: the index of the estimate's damage this row edits (absent: a
 * damage the reviewer adds). `amount`: the line in dollars; absent or null = to be determined.
 */
export const estimateRowSchema = z.object({
  line: z.preprocess(formNumber, wholeField("Line", 0, MAX_DAMAGES - 1).optional()),
  damageType: enumField(DAMAGE_TYPES, "Damage type"),
  location: enumField(DAMAGE_LOCATIONS, "Location"),
  severity: enumField(SEVERITIES, "Severity"),
  amount: z.preprocess((v) => (blank(v) ? undefined : formNumber(v)), amountField("Amount").optional()),
});
export type EstimateRow = z.infer<typeof estimateRowSchema>;

const fields = {
  /** The estimate's overall severity; absent = not determined. */
  severity: z.preprocess((v) => (blank(v) ? undefined : v), enumField(SEVERITIES, "Severity").optional()),
  /** Why it changed: required (by the service, which knows the total before) when the total changes. */
  reason: optionalString("Reason", REASON_MAX),
  /** The customer: one of the estimate owner's contacts; absent or blank keeps the one it has. */
  contactId: z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === "string" ? v.trim().toLowerCase() : v),
    z.string({ invalid_type_error: CONTACT_NOT_FOUND }).regex(/^[a-f0-9]{24}$/, CONTACT_NOT_FOUND).optional(),
  ),
  ...sheetFields,
};

const linesList = z
  .array(sheetLineSchema, { invalid_type_error: "Lines must be a list" })
  .max(MAX_SHEET_LINES, `At most ${MAX_SHEET_LINES} lines`);

/** Lines name a damage of the edit's list and each line already on the estimate once; amounts go on lines or on damages, not both. */
function linesFit(input: { damages: EstimateRow[]; lines?: SheetLineInput[] }, ctx: z.RefinementCtx) {
  if (!input.lines) return;
  const seen = new Set<string>();
  input.lines.forEach((line, i) => {
    if (line.damage != null && line.damage >= input.damages.length) {
      ctx.addIssue({ code: "custom", path: ["lines", i, "damage"], message: "This damage is not on the estimate" });
    }
    if (line.id !== undefined) {
      if (seen.has(line.id)) ctx.addIssue({ code: "custom", path: ["lines", i, "id"], message: "Each line can be edited once" });
      seen.add(line.id);
    }
  });
  input.damages.forEach((row, i) => {
    if (row.amount !== undefined) ctx.addIssue({ code: "custom", path: ["damages", i, "amount"], message: "With lines, amounts are set on the lines" });
  });
}

/** Each estimate line refers to one of the estimate's damages at most once. */
function distinctLines(input: { damages: EstimateRow[] }, ctx: z.RefinementCtx) {
  const seen = new Set<number>();
  input.damages.forEach((row, i) => {
    if (row.line === undefined) return;
    if (seen.has(row.line)) ctx.addIssue({ code: "custom", path: ["damages", i, "line"], message: "Each line can be edited once" });
    seen.add(row.line);
  });
}

/**
 * `PUT /api/assessments/{id}/estimate` and the Edit Estimate form: the writable fields of an
 * estimate (severity, damages with their lines, the customer, the reason). Everything else is derived: the
 * categories from the damages, the total from the lines, the status and the audit entry.
 */
export const estimateEditSchema = z
  .object({
    ...fields,
    damages: z
      .array(estimateRowSchema, { invalid_type_error: "Damages must be a list", required_error: "Damages are required" })
      .max(MAX_DAMAGES, `At most ${MAX_DAMAGES} damages`),
    /** The estimate's lines as shops write them; absent: the damages' amounts (one line each), as before issue 27. */
    lines: linesList.optional(),
  })
  .superRefine(distinctLines)
  .superRefine(linesFit);
export type EstimateEditInput = z.infer<typeof estimateEditSchema>;

type FormRow = Record<string, unknown>;
const isRow = (v: unknown): v is FormRow => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The form posts one row per damage (`damages[i].…`) plus a blank row to add one, and a Remove
 * box per row. Removed and blank rows are dropped; the others are checked with the API's row
 * schema, their messages kept on the row the user sees (its index in the form).
 */
const formDamages = z
  .preprocess((v) => (v === undefined ? [] : v), z.array(z.unknown()))
  .transform((rows, ctx) => {
    const kept: EstimateRow[] = [];
    rows.forEach((row, i) => {
      if (!isRow(row) || row.remove === "on" || (blank(row.line) && blank(row.damageType))) return;
      const parsed = estimateRowSchema.safeParse(row);
      if (parsed.success) kept.push(parsed.data);
      else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [i, ...issue.path] });
    });
    return kept;
  })
  .refine((rows) => rows.length <= MAX_DAMAGES, `At most ${MAX_DAMAGES} damages`);

const dollarsToCents = (v: unknown) => {
  const n = formNumber(v);
  return typeof n === "number" && Number.isFinite(n) ? Math.round(n * 100) : n;
};
const centsOf = (row: FormRow, from: string) => (blank(row[from]) ? undefined : dollarsToCents(row[from]));

/**
 * The form's lines (`lines[i].…`, dollars as typed) in the API's shape (cents), with a Remove box
 * per line and a blank line to add one; a line of a damage removed in the same post goes with it.
 * The damage is the damage row's index in the form, renumbered as the kept damages are.
 */
function formLines(rawDamages: unknown, rawLines: unknown, ctx: z.RefinementCtx) {
  const damages = Array.isArray(rawDamages) ? rawDamages : [];
  const renumber = new Map<number, number>();
  damages.forEach((row, i) => {
    if (isRow(row) && row.remove !== "on" && !(blank(row.line) && blank(row.damageType))) renumber.set(i, renumber.size);
  });
  const kept: SheetLineInput[] = [];
  (Array.isArray(rawLines) ? rawLines : []).forEach((row, i) => {
    if (!isRow(row) || row.remove === "on" || (blank(row.id) && blank(row.operation))) return;
    const damageIndex = blank(row.damage) ? null : Number(row.damage);
    if (damageIndex !== null && !renumber.has(damageIndex)) return;
    const parsed = sheetLineSchema.safeParse({
      ...row,
      damage: damageIndex === null ? null : renumber.get(damageIndex),
      rateCents: centsOf(row, "rate"),
      unitPriceCents: centsOf(row, "unitPrice"),
      amountCents: centsOf(row, "amount"),
      // A box posts "on" when ticked and nothing when not: the form always says which.
      optional: row.optional === "on",
    });
    const formName: Record<string, string> = { rateCents: "rate", unitPriceCents: "unitPrice", amountCents: "amount" };
    if (parsed.success) kept.push(parsed.data);
    else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message.replace(/\bcents\b/, "dollars"), path: ["lines", i, ...issue.path.map((p) => formName[String(p)] ?? p)] });
  });
  if (kept.length > MAX_SHEET_LINES) ctx.addIssue({ code: "custom", path: ["lines"], message: `At most ${MAX_SHEET_LINES} lines` });
  return kept;
}

/**
 * What the form was read at (hidden fields): the estimate's revision, so a save over a version its
 * author never saw is refused (docs/decisions/0027), and how many audit entries it then had, so the
 * refusal can show what was changed meanwhile. Absent (a page from before revisions): no check.
 */
const readAtFields = {
  revision: z.preprocess((v) => (blank(v) ? undefined : formNumber(v)), wholeField("Revision", 0, Number.MAX_SAFE_INTEGER).optional()),
  seenAudit: z.preprocess((v) => (blank(v) ? undefined : formNumber(v)), wholeField("Audit entries", 0, Number.MAX_SAFE_INTEGER).optional()),
};

export const estimateFormSchema = z
  .preprocess(
    (v) =>
      isRow(v)
        ? {
            ...v,
            rawDamages: v.damages,
            materialsRateCents: blank(v.materialsRate) ? undefined : dollarsToCents(v.materialsRate),
            // A field the post leaves out keeps what is stored; posted blank, it is removed.
            deductibleCents: v.deductible === undefined ? undefined : blank(v.deductible) ? null : dollarsToCents(v.deductible),
            mileage: v.mileage === undefined ? undefined : blank(v.mileage) ? null : v.mileage,
          }
        : v,
    z
      .object({ ...fields, ...readAtFields, damages: formDamages, rawDamages: z.unknown(), lines: z.unknown() })
      // A post without any line fields sets one amount per damage, as the form did before lines.
      .transform(({ rawDamages, lines, ...rest }, ctx) => ({ ...rest, lines: lines === undefined ? undefined : formLines(rawDamages, lines, ctx) })),
  )
  .superRefine((v, ctx) => {
    distinctLines(v, ctx);
    linesFit(v, ctx);
  });

export const estimateFormValidator = withZod(estimateFormSchema);
