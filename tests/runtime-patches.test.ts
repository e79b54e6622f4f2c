import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { installed, patchCopies, patchTarget, runtimePatches } from "../scripts/patch-copies.mjs";

/**
 * patches/runtime (decision 0025): each patch's gain, checked against the installed package, and
 * against a copy of it with the patch reversed, where the check must fail. A patch that stops
 * applying fails the install (package.json's postinstall); one that applies but no longer does its
 * work fails here; one without a check fails here too.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const requireFrom = createRequire(import.meta.url);

/** Where a package's files are read from: the installed package, or a copy with one patch reversed. */
type PackageDir = (name: string) => string;

type Check = { patch: string; gain: string; holds: (dir: PackageDir) => Promise<void> | void };

/** The modules a file imports statically (`import … from "x"` and `import "x"`). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

const checks: Check[] = [
  {
    patch: "@mantine+core+8.3.18.patch",
    gain: "AppShell's header, footer and aside do not load react-remove-scroll for one class name",
    holds: (dir) => {
      for (const part of ["AppShellHeader", "AppShellFooter", "AppShellAside"]) {
        const file = path.join(dir("@mantine/core"), `esm/components/AppShell/${part}/${part}.mjs`);
        expect(staticImports(file)).not.toContain("react-remove-scroll");
        // The class name it writes is still the one react-remove-scroll keeps clear of the scrollbar.
        const { RemoveScroll } = requireFrom("react-remove-scroll") as { RemoveScroll: { classNames: { zeroRight: string } } };
        expect(readFileSync(file, "utf8")).toContain(`'${RemoveScroll.classNames.zeroRight}'`);
      }
    },
  },
  {
    patch: "@mantine+core+8.3.18.patch",
    gain: "extractStyleProps reads only the props a component got, and answers as before",
    holds: async (dir) => {
      const file = path.join(dir("@mantine/core"), "esm/core/Box/style-props/extract-style-props/extract-style-props.mjs");
      const { extractStyleProps } = (await import(pathToFileURL(file).href)) as {
        extractStyleProps: (props: Record<string, unknown>) => { styleProps: Record<string, unknown>; rest: Record<string, unknown> };
      };
      const onClick = () => {};
      expect(extractStyleProps({ mt: "md", hiddenFrom: "sm", c: undefined, onClick, "aria-label": "x" })).toEqual({
        styleProps: { mt: "md", hiddenFrom: "sm" },
        rest: { onClick, "aria-label": "x" },
      });
      const plain = { onClick, "aria-label": "x", constructor: "not a style prop" };
      const read: string[] = [];
      const watched = new Proxy(plain, {
        get(target, key, receiver) {
          if (typeof key === "string") read.push(key);
          return Reflect.get(target, key, receiver);
        },
      });
      const { styleProps, rest } = extractStyleProps(watched);
      expect(styleProps).toEqual({});
      expect(rest).toEqual(plain);
      expect(rest).not.toBe(plain);
      expect(read.filter((key) => !(key in plain))).toEqual([]);
    },
  },
  {
    patch: "@remix-run+react+2.17.5.patch",
    gain: "the browser's entry and components do not load single fetch's code while single fetch is off",
    holds: (dir) => {
      for (const file of ["dist/esm/browser.js", "dist/esm/components.js"]) {
        expect(staticImports(path.join(dir("@remix-run/react"), file))).not.toContain("./single-fetch.js");
      }
    },
  },
  {
    patch: "@remix-run+react+2.17.5.patch",
    gain: "RemixServer makes a build's route tree once, not for every page",
    holds: (dir) => {
      const routes = requireFrom(path.join(dir("@remix-run/react"), "dist/routes.js")) as {
        createServerRoutes: (...args: unknown[]) => unknown;
      };
      const { RemixServer } = requireFrom(path.join(dir("@remix-run/react"), "dist/server.js")) as {
        RemixServer: (props: { context: unknown; url: string }) => unknown;
      };
      const original = routes.createServerRoutes;
      let made = 0;
      routes.createServerRoutes = (...args) => {
        made += 1;
        return original(...args);
      };
      try {
        const manifestRoutes = { root: { id: "root", path: "", module: "root.js", hasLoader: false, hasAction: false } };
        const contextFor = (pathname: string) => ({
          manifest: { routes: manifestRoutes, entry: { module: "", imports: [] }, url: "", version: "1" },
          routeModules: { root: { default: () => null } },
          future: {},
          isSpaMode: false,
          serverHandoffString: "",
          staticHandlerContext: {
            basename: "/",
            location: { pathname, search: "", hash: "", state: null, key: "default" },
            matches: [],
            loaderData: {},
            actionData: null,
            errors: null,
            statusCode: 200,
            loaderHeaders: {},
            actionHeaders: {},
            activeDeferreds: null,
          },
        });
        RemixServer({ context: contextFor("/"), url: "http://localhost/" });
        RemixServer({ context: contextFor("/estimates"), url: "http://localhost/estimates" });
        expect(made).toBe(1);
      } finally {
        routes.createServerRoutes = original;
      }
    },
  },
  {
    patch: "react-router-dom+6.30.4.patch",
    gain: "a route tree's data routes are made once, so the router's per-tree caches hold across pages",
    holds: async (dir) => {
      // The CommonJS build: the one @remix-run/react's RemixServer requires.
      const { createStaticHandler, createStaticRouter } = requireFrom(path.join(dir("react-router-dom"), "server.js")) as typeof import("react-router-dom/server");
      const routes = [{ id: "root", path: "/", children: [{ id: "estimates", path: "estimates", loader: () => null }] }];
      const handler = createStaticHandler(routes);
      const contextFor = async (url: string) => {
        const context = await handler.query(new Request(url));
        if (context instanceof Response) throw new Error("unexpected response");
        return context;
      };
      const first = createStaticRouter(routes, await contextFor("http://localhost/estimates"));
      const second = createStaticRouter(routes, await contextFor("http://localhost/"));
      expect(second.routes).toBe(first.routes);
      expect(second.state.matches.map((m) => m.route.id)).toEqual(["root"]);
      expect(first.state.matches.map((m) => m.route.id)).toEqual(["root", "estimates"]);
    },
  },
  {
    patch: "@remix-run+router+1.23.3.patch",
    gain: "a path matched before is answered without walking the route tree again, each caller with its own copies",
    holds: (dir) => {
      const { matchRoutes } = requireFrom(path.join(dir("@remix-run/router"), "dist/router.cjs.js")) as typeof import("@remix-run/router");
      let reads = 0;
      const counted = (route: AgnosticRouteObject) =>
        new Proxy(route, {
          get(target, key, receiver) {
            if (key === "path") reads += 1;
            return Reflect.get(target, key, receiver);
          },
        });
      const routes = [
        counted({ id: "root", path: "/", children: [counted({ id: "contact", path: "api/contacts/:id" }), counted({ id: "contacts", path: "api/contacts" })] }),
      ];
      const first = matchRoutes(routes, "/api/contacts/abc");
      (first![1].params as Record<string, string>).id = "changed by a caller";
      reads = 0;
      const again = matchRoutes(routes, "/api/contacts/abc");
      expect(reads).toBe(0);
      expect(again!.map((m) => m.route.id)).toEqual(["root", "contact"]);
      expect(again![1].params).toEqual({ id: "abc" });
      expect(matchRoutes(routes, "/api/contacts")!.map((m) => m.route.id)).toEqual(["root", "contacts"]);
      expect(matchRoutes(routes, "/api/other")).toBeNull();
      expect(matchRoutes(routes, "/api/other")).toBeNull();
    },
  },
];

const patches = runtimePatches();

describe("the runtime patches", () => {
  for (const check of checks) it(`${check.patch}: ${check.gain}`, () => check.holds(installed));

  it("each has a check, and pins its package to the version it was made for", () => {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      overrides?: Record<string, string>;
    };
    for (const patch of patches) {
      expect(checks.some((c) => c.patch === patch), `${patch} has no check`).toBe(true);
      const { name, version } = patchTarget(patch);
      expect(JSON.parse(readFileSync(path.join(installed(name), "package.json"), "utf8")).version).toBe(version);
      expect(manifest.dependencies[name] ?? manifest.overrides?.[name], `${name} pinned in package.json`).toBe(version);
    }
  });

  for (const patch of patches) {
    it(`${patch}: its checks fail on the package with the patch reversed`, async () => {
      const { intact, reversed, remove } = patchCopies(patch);
      const own = checks.filter((c) => c.patch === patch);
      // The intact copy passes, so a failure below is the patch's absence, not a copy that cannot load.
      for (const check of own) await check.holds(intact);
      const failures = await Promise.all(
        own.map(async (c) => {
          try {
            await c.holds(reversed);
            return false;
          } catch {
            return true;
          }
        }),
      );
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.every(Boolean), `every check of ${patch} fails without it: ${JSON.stringify(failures)}`).toBe(true);
      remove();
    }, 60_000);
  }
});
