// What each runtime patch (patches/runtime, decision 0025) gains on today's code: the patched
// function against a copy of its package with the patch reversed, in turns (so the machine's drift hits
// both), medians of 7 turns; and the bytes a page's JavaScript is spared.
import { build } from "esbuild";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { installed, patchCopies } from "../scripts/patch-copies.mjs";
import { root } from "../scripts/setup.mjs";

const requireFrom = createRequire(import.meta.url);

/** µs per call of `run`, intact against reversed, medians of turns. */
function paired(label, makeIntact, makeReversed, calls = 2_000) {
  const runs = { intact: makeIntact(), reversed: makeReversed() };
  const times = { intact: [], reversed: [] };
  for (const run of Object.values(runs)) for (let i = 0; i < calls; i += 1) run(i);
  for (let turn = 0; turn < 7; turn += 1) {
    for (const [kind, run] of Object.entries(runs)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i += 1) run(i);
      times[kind].push(Number(process.hrtime.bigint() - start) / 1_000 / calls);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [patched, without] = [median(times.intact), median(times.reversed)];
  console.log(`${label}: ${patched.toFixed(2)} µs patched, ${without.toFixed(2)} µs without (${(without / patched).toFixed(1)}×)`);
}

// A route tree shaped like the app's: 100 routes under a layout, a third of them with a parameter.
const tree = () => [
  {
    id: "root",
    path: "",
    children: Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, path: i % 3 === 0 ? `area${i}/:id` : `area${i}/list` })),
  },
];
const paths = Array.from({ length: 20 }, (_, i) => (i % 2 ? `/area${i * 3}/abc` : `/area${i * 3 + 1}/list`));

const router = patchCopies("@remix-run+router+1.23.3.patch");
const matcher = (dir) => () => {
  const { matchRoutes } = requireFrom(path.join(dir("@remix-run/router"), "dist/router.cjs.js"));
  const routes = tree();
  return (i) => matchRoutes(routes, paths[i % paths.length]);
};
paired("@remix-run/router matchRoutes, 100 routes, a path seen before", matcher(router.intact), matcher(router.reversed));
router.remove();

const dom = patchCopies("react-router-dom+6.30.4.patch");
const staticRouter = (dir) => () => {
  const { createStaticRouter } = requireFrom(path.join(dir("react-router-dom"), "server.js"));
  const routes = tree();
  const context = { basename: "/", location: { pathname: "/", search: "", hash: "" }, matches: [], loaderData: {}, actionData: null, errors: null };
  return () => createStaticRouter(routes, context);
};
paired("react-router-dom createStaticRouter per page, 100 routes", staticRouter(dom.intact), staticRouter(dom.reversed), 500);
dom.remove();

const remix = patchCopies("@remix-run+react+2.17.5.patch");
const remixServer = (dir) => () => {
  const { RemixServer } = requireFrom(path.join(dir("@remix-run/react"), "dist/server.js"));
  const routes = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`r${i}`, { id: `r${i}`, parentId: "root", path: `area${i}`, module: "", hasLoader: true }]),
  );
  routes.root = { id: "root", path: "", module: "", hasLoader: true };
  const routeModules = Object.fromEntries(Object.keys(routes).map((id) => [id, { default: () => null }]));
  return () =>
    RemixServer({
      url: "http://localhost/area1",
      context: {
        manifest: { routes, entry: { module: "", imports: [] }, url: "", version: "1" },
        routeModules,
        future: {},
        isSpaMode: false,
        serverHandoffString: "",
        staticHandlerContext: { basename: "/", location: { pathname: "/area1", search: "", hash: "" }, matches: [], loaderData: {}, actionData: null, errors: null },
      },
    });
};
paired("@remix-run/react RemixServer per page, 100 routes", remixServer(remix.intact), remixServer(remix.reversed), 500);
remix.remove();
const singleFetch = gzipSync(readFileSync(path.join(installed("@remix-run/react"), "dist/esm/single-fetch.js"))).length;
console.log(`@remix-run/react single fetch's client code kept off every page: ${(singleFetch / 1024).toFixed(1)} KB gzip (before minifying)`);

const mantine = patchCopies("@mantine+core+8.3.18.patch");
const file = "esm/core/Box/style-props/extract-style-props/extract-style-props.mjs";
const extract = {
  intact: (await import(pathToFileURL(path.join(mantine.intact("@mantine/core"), file)).href)).extractStyleProps,
  reversed: (await import(pathToFileURL(path.join(mantine.reversed("@mantine/core"), file)).href)).extractStyleProps,
};
const props = { className: "card", children: "text", onClick: () => {}, "aria-label": "Open" };
paired("@mantine/core extractStyleProps, a component without style props", () => () => extract.intact(props), () => () => extract.reversed(props), 20_000);
mantine.remove();
const removeScroll = await build({
  stdin: { contents: 'export { RemoveScroll } from "react-remove-scroll";', resolveDir: root },
  bundle: true,
  minify: true,
  write: false,
  format: "esm",
  external: ["react", "react-dom"],
});
console.log(
  `@mantine/core AppShell without react-remove-scroll: ${(gzipSync(removeScroll.outputFiles[0].contents).length / 1024).toFixed(1)} KB gzip less on every page with the shell`,
);
