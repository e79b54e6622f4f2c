import { createRequestHandler, json, type ServerBuild } from "@remix-run/server-runtime";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * patches/runtime (decision 0014): what the app relies on from the patched Remix runtime. Without
 * the patch every loader of a page got its own copy of the request, and the per-request session
 * read (requestSession, keyed by the request) went to the database once per loader.
 */
describe("the patched Remix server runtime", () => {
  function buildWith(seen: Request[]): ServerBuild {
    const loader = ({ request }: { request: Request }) => {
      seen.push(request);
      return json({ url: request.url });
    };
    const route = (id: string, parentId: string | undefined, path: string | undefined, index = false) => ({
      id,
      parentId,
      path,
      index,
      caseSensitive: undefined,
      module: { loader, default: () => null },
    });
    return {
      mode: "production",
      entry: { module: { default: async () => new Response("page"), handleDataRequest: undefined } },
      routes: {
        root: route("root", undefined, ""),
        "routes/_app": route("routes/_app", "root", undefined),
        "routes/_app.estimates": route("routes/_app.estimates", "routes/_app", "estimates"),
      },
      assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
      publicPath: "/build/",
      assetsBuildDirectory: "public/build",
      future: {},
      isSpaMode: false,
    } as unknown as ServerBuild;
  }

  it("hands a page's loaders the one request it came with", async () => {
    const seen: Request[] = [];
    const handler = createRequestHandler(buildWith(seen), "production");
    const request = new Request("http://localhost/estimates?q=camry");
    await handler(request);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect(seen[0].url).toBe("http://localhost/estimates?q=camry");
  });

  it("still strips Remix's own parameters before a loader sees the URL", async () => {
    const seen: Request[] = [];
    const handler = createRequestHandler(buildWith(seen), "production");
    const response = await handler(new Request("http://localhost/estimates?q=camry&_data=routes%2F_app.estimates"));
    expect(response.status).toBe(200);
    expect(seen.map((r) => r.url)).toEqual(["http://localhost/estimates?q=camry"]);
  });
});

describe("the patched React Router server rendering", () => {
  it("makes a route tree's data routes once, so the router's per-tree caches hold across pages", async () => {
    // The CommonJS build: the one @remix-run/react's RemixServer requires.
    const { createStaticHandler, createStaticRouter } = createRequire(import.meta.url)("react-router-dom/server") as typeof import("react-router-dom/server");
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
  });
});

describe("the patched Mantine style props", () => {
  it("takes style props out of a component's props, and passes the rest on, with or without any", async () => {
    const { extractStyleProps } = await import("#mantine/core/Box/style-props/extract-style-props/extract-style-props");
    const onClick = () => {};
    expect(extractStyleProps({ mt: "md", hiddenFrom: "sm", c: undefined, onClick, "aria-label": "x" })).toEqual({
      styleProps: { mt: "md", hiddenFrom: "sm" },
      rest: { onClick, "aria-label": "x" },
    });
    const plain = { onClick, "aria-label": "x", constructor: "not a style prop" };
    const { styleProps, rest } = extractStyleProps(plain);
    expect(styleProps).toEqual({});
    expect(rest).toEqual(plain);
    expect(rest).not.toBe(plain);
  });
});

describe("the patched route matching", () => {
  it("answers a path it has matched before with the same matches, each caller with its own copies", () => {
    const { matchRoutes } = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");
    const routes = [{ id: "root", path: "/", children: [{ id: "contact", path: "api/contacts/:id" }, { id: "contacts", path: "api/contacts" }] }];
    const first = matchRoutes(routes, "/api/contacts/abc");
    (first![1].params as Record<string, string>).id = "changed by a caller";
    const again = matchRoutes(routes, "/api/contacts/abc");
    expect(again!.map((m) => m.route.id)).toEqual(["root", "contact"]);
    expect(again![1].params).toEqual({ id: "abc" });
    expect(matchRoutes(routes, "/api/contacts")!.map((m) => m.route.id)).toEqual(["root", "contacts"]);
    expect(matchRoutes(routes, "/api/other")).toBeNull();
    expect(matchRoutes(routes, "/api/other")).toBeNull();
  });
});
