/** The spec's enumerations (part 2 §3), shared by forms, the API, the models and the pricing engine. */

export const DAMAGE_TYPES = [
  "scratch",
  "dent",
  "crack",
  "rust",
  "broken_part",
  "missing_part",
  "paint_damage",
  "glass_damage",
  "bumper_damage",
  "headlight_damage",
  "taillight_damage",
  "mirror_damage",
  "wheel_damage",
  "body_panel_damage",
] as const;
export type DamageType = (typeof DAMAGE_TYPES)[number];

/** Mildest first: the order matters (worst severity of an assessment, monotone pricing). */
export const SEVERITIES = ["minor", "moderate", "major", "severe"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DAMAGE_LOCATIONS = ["front", "rear", "left", "right", "top", "bottom", "center"] as const;
export type DamageLocation = (typeof DAMAGE_LOCATIONS)[number];

export const PRICING_MODELS = ["flat_rate", "hourly", "damage_based"] as const;
