// BUILD_DIR lets several builds coexist (parallel work trees, CI shards); default ./build.
const buildDir = process.env.BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(buildDir
    ? { serverBuildPath: `${buildDir}/index.js`, assetsBuildDirectory: `${buildDir}/public` }
    : {}),
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Mantine ships ESM with CSS side effects; bundling it keeps the server build self-contained.
  serverDependenciesToBundle: [/^@mantine\//, /^#mantine\//],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
