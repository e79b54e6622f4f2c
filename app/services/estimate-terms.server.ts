import { TERMS_VARIABLES } from "~/schemas/estimate-settings";
import { parseSandboxed, renderMetered, sandbox } from "./template-sandbox.server";

// The three objects themselves are known too (`{{#with customer}}`).
const KNOWN = new Set<string>([...TERMS_VARIABLES, "customer", "account", "estimate"]);

/**
 * Parses estimate terms in the sandboxed environment: 400 on the `terms` field when they do not
 * compile, use a helper or partial we do not allow or nest blocks too deep; unknown variables as warnings.
 * Printed as text, so unescaped output is harmless there.
 */
export const parseTerms = (source: string) => parseSandboxed(source, { field: "terms", known: KNOWN, allowUnescaped: true });

/**
 * The terms with their Handlebars variables filled in (customer, account, estimate), in the sandboxed
 * environment (docs/decisions/0034). Printed as text, never as HTML; terms that do not compile, nest
 * too deep or go over the render budget (stored before the checks existed, or written around them)
 * print as written.
 */
export function renderTerms(template: string, data: { customer: string; account: string; title: string; total: string; validUntil: string }) {
  if (!template.trim()) return "";
  try {
    const { program } = parseTerms(template);
    return renderMetered(sandbox.compile(program, { noEscape: true, strict: false }), {
      customer: { name: data.customer },
      account: { name: data.account },
      estimate: { title: data.title, total: data.total, validUntil: data.validUntil },
    });
  } catch {
    return template;
  }
}
