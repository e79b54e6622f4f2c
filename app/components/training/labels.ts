import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "~/schemas/damage";

export { SEVERITY_COLOR } from "~/schemas/assessment-status";

/** "broken_part" → "Broken Part": enumeration values as people read them. */
export const humanize = (value: string) => value.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

export const DAMAGE_TYPE_OPTIONS = DAMAGE_TYPES.map((value) => ({ value, label: humanize(value) }));
export const SEVERITY_OPTIONS = SEVERITIES.map((value) => ({ value, label: humanize(value) }));
export const LOCATION_OPTIONS = DAMAGE_LOCATIONS.map((value) => ({ value, label: humanize(value) }));
