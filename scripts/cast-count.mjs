// Type casts in product code (issue 45 item 3): every `x as T` and `<T>x` in app/ outside tests and the
// vendored bundle, `as const` aside (it narrows, it does not override the checker), per 1,000 lines.
// `node scripts/cast-count.mjs` prints the figures and the files with the most; tests/budgets.test.ts
// holds the count to its ceiling, which only goes down.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function productFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === "vendor" ? [] : productFiles(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [file] : [];
  });
}

const isCast = (node) =>
  (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === "const");

/** { lines, casts, perThousand, doubleCasts (`as unknown as`), files: [[casts, path], …] most first }. */
export function castCount(dir = path.join(root, "app")) {
  let lines = 0;
  let casts = 0;
  let doubleCasts = 0;
  const files = [];
  for (const file of productFiles(dir)) {
    const text = readFileSync(file, "utf8");
    lines += text.split("\n").length;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    let here = 0;
    const visit = (node) => {
      if (isCast(node)) {
        here++;
        if (ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword) doubleCasts++;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    casts += here;
    if (here) files.push([here, path.relative(root, file)]);
  }
  files.sort((a, b) => b[0] - a[0]);
  return { lines, casts, perThousand: Math.round((casts / lines) * 100_000) / 100, doubleCasts, files };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, ...figures } = castCount();
  console.log(figures);
  for (const [n, file] of files.slice(0, 20)) console.log(`${String(n).padStart(4)}  ${file}`);
}
