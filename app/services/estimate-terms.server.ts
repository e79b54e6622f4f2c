import { TERMS_VARIABLES } from "~/schemas/estimate-settings";
import { parseSandboxed } from "./template-sandbox.server";

// The three objects themselves are known too (`{{#with customer}}`).
const KNOWN = new Set<string>([...TERMS_VARIABLES, "customer", "account", "estimate"]);

/**
 * Parses estimate terms in the sandboxed environment: 400 on the `terms` field when they do not
 * compile, use a helper or partial we do not allow or nest blocks too deep; unknown variables as warnings.
 * Printed as text, so unescaped output is harmless there.
 */
export const parseTerms = (source: string) => parseSandboxed(source, { field: "terms", known: KNOWN, allowUnescaped: true });
