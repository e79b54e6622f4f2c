/** "S01" for the first supplement, "Original" for version 1 (how shops name versions). */
export const versionLabel = (version: number) => (version <= 1 ? "Original" : `S${String(version - 1).padStart(2, "0")}`);

/**
 * The estimate's number as every screen, page, PDF, email and payload shows it (docs/decisions/0053):
 * the original's number (the last 8 characters of the first version's id, upper case) kept by every
 * version, with the supplement's label after it: `1A2B3C4D` for the original, `1A2B3C4D-S01` for the
 * first supplement.
 */
export const estimateNumber = (rootId: string, version: number) => {
  const base = rootId.slice(-8).toUpperCase();
  return version <= 1 ? base : `${base}-${versionLabel(version)}`;
};
