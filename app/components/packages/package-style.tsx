import { BoxIcon, CrownIcon, StarIcon } from "../crud/icons";

/**
 * A package's icon and colour, chosen by its name: premium/pro tiers, standard/basic tiers,
 * and everything else.
 */
export function packageStyle(name: string) {
  const n = name.toLowerCase();
  if (n.includes("premium") || n.includes("pro")) return { tier: "premium", color: "violet", Icon: CrownIcon } as const;
  if (n.includes("standard") || n.includes("basic")) return { tier: "standard", color: "blue", Icon: StarIcon } as const;
  return { tier: "other", color: "teal", Icon: BoxIcon } as const;
}
