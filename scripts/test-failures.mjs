// The failures of a vitest JSON report and a Playwright JSON report, a line each: CI shows only the
// log's tail, so `npm test` names each failure there with the first line of its message.
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { root } from "./setup.mjs";

export function firstLine(text) {
  return stripVTControlCharacters(String(text ?? "")).split("\n").find((l) => l.trim())?.trim().slice(0, 300) ?? "";
}

export function failedTests(v, p) {
  const failures = [];
  for (const file of v?.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === "failed") failures.push(`${path.relative(root, file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  for (const file of v?.testResults ?? []) if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) failures.push(`${path.relative(root, file.name)}: ${firstLine(file.message)}`);
  // Playwright nests describes in a file's suite; a test is named by its describes and its title.
  const walk = (suite, outer) => {
    const titles = suite.title ? [...outer, suite.title] : outer;
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected") failures.push(`${spec.file} › ${[...titles, spec.title].join(" › ")} [${t.projectName}]: ${firstLine(t.results?.at(-1)?.error?.message)}`);
    for (const child of suite.suites ?? []) walk(child, titles);
  };
  for (const file of p?.suites ?? []) walk({ ...file, title: "" }, []);
  return failures;
}
