import { lazyValidator } from "./lazy-validator";

// The forms' client validators, each loading its schema module (and zod) on first use: the same
// validators the screen actions and API routes use, named alike (see lazy-validator.ts).
export const registrationValidator = lazyValidator(() => import("~/schemas/auth").then((m) => m.registrationValidator));
export const changeCredentialsValidator = lazyValidator(() => import("~/schemas/auth").then((m) => m.changeCredentialsValidator));
export const createUserValidator = lazyValidator(() => import("~/schemas/auth").then((m) => m.createUserValidator));
export const createManagedUserValidator = lazyValidator(() => import("~/schemas/auth").then((m) => m.createManagedUserValidator));
export const contactValidator = lazyValidator(() => import("~/schemas/contact").then((m) => m.contactValidator));
export const packageValidator = lazyValidator(() => import("~/schemas/package").then((m) => m.packageValidator));
export const estimateFormValidator = lazyValidator(() => import("~/schemas/estimate").then((m) => m.estimateFormValidator));
export const assessmentCreateValidator = lazyValidator(() => import("~/schemas/assessment").then((m) => m.assessmentCreateValidator));
export const trainingItemValidator = lazyValidator(() => import("~/schemas/training").then((m) => m.trainingItemValidator));
export const pricingRuleValidator = lazyValidator(() => import("~/schemas/vendor-pricing").then((m) => m.pricingRuleValidator));
export const vendorPackageValidator = lazyValidator(() => import("~/schemas/vendor-pricing").then((m) => m.vendorPackageValidator));
export const aiProviderValidator = lazyValidator(() => import("~/schemas/ai-provider").then((m) => m.aiProviderValidator));
