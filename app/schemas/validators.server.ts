// The validators and schemas the screens' loaders and actions use, for route modules to import:
// being a .server module it is empty in the browser build, so a route's action does not bring zod
// (and the schema) into the page's JavaScript. Forms validate in the browser through
// ~/components/form/validators, which loads them on demand.
export { changeCredentialsValidator, createManagedUserValidator, createUserValidator } from "./auth";
export { contactValidator } from "./contact";
export { packageValidator } from "./package";
export { trainingFilterSchema, trainingItemValidator } from "./training";
export { pricingRuleValidator, vendorPackageValidator } from "./vendor-pricing";
export { aiProviderValidator } from "./ai-provider";
