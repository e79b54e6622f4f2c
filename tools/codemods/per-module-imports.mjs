// Rewrites app code to the per-module imports of decision 0013 (run after merging code written
// before it; idempotent): value imports from the "@mantine/core" barrel become one import per
// component module ("#mantine/components/Button/Button"; types stay on "@mantine/core"), Mantine's
// NativeSelect and Table become ours (~/components/form/NativeSelect, ~/components/Table), and
// imports from the old ~/components/form/fields module become one per field module.
//   node tools/codemods/per-module-imports.mjs   (prints the files it changed)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const index = readFileSync(path.join(root, "node_modules/@mantine/core/esm/index.mjs"), "utf8");
/** Exported name → { module path under esm/ without .mjs, name in that module }. */
const where = new Map();
for (const m of index.matchAll(/export \{([^}]*)\} from '\.\/([^']+)\.mjs';/g)) {
  for (const spec of m[1].split(",").map((s) => s.trim()).filter(Boolean)) {
    const [orig, alias] = spec.split(/\s+as\s+/).map((s) => s.trim());
    where.set(alias ?? orig, { module: m[2], orig });
  }
}
const OURS = { NativeSelect: "~/components/form/NativeSelect", Table: "~/components/Table" };

const files = execFileSync("git", ["ls-files", "app/*.ts", "app/*.tsx"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !f.endsWith(".test.ts") && !f.endsWith(".test.tsx"));
for (const file of files) {
  const full = path.join(root, file);
  const before = readFileSync(full, "utf8");
  let source = before.replace(/import\s*\{([^}]*)\}\s*from\s*"@mantine\/core";\n/g, (all, names) => {
    const types = [];
    const byModule = new Map();
    for (let spec of names.split(",").map((s) => s.trim()).filter(Boolean)) {
      if (spec.startsWith("type ")) {
        types.push(spec.slice(5).trim());
        continue;
      }
      const [local, alias] = spec.split(/\s+as\s+/).map((s) => s.trim());
      const found = where.get(local);
      if (!found) {
        types.push(spec); // only a type has no module of its own
        continue;
      }
      const from = OURS[local] ?? `#mantine/${found.module}`;
      if (!OURS[local] && !existsSync(path.join(root, "node_modules/@mantine/core/lib", `${found.module}.d.ts`))) {
        throw new Error(`${file}: no types for ${found.module}`);
      }
      spec = found.orig === local || OURS[local] ? spec : `${found.orig} as ${alias ?? local}`;
      byModule.set(from, [...(byModule.get(from) ?? []), spec]);
    }
    let out = "";
    for (const [from, specs] of byModule) out += `import { ${specs.join(", ")} } from "${from}";\n`;
    if (types.length) out += `import type { ${types.join(", ")} } from "@mantine/core";\n`;
    return out;
  });
  source = source.replace(
    /import \{([^}]*)\} from "((?:\.\.\/|~\/components\/)form\/fields)";/g,
    (all, names, base) =>
      names
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => `import { ${n} } from "${base}/${n}";`)
        .join("\n"),
  );
  for (const [name, from] of Object.entries(OURS)) {
    source = source.replace(`import { ${name} } from "#mantine/components/${name}/${name}";`, `import { ${name} } from "${from}";`);
  }
  if (source !== before) {
    writeFileSync(full, source);
    console.log(file);
  }
}
