import "react";

// CSS custom properties (`--name`) in a style: Mantine's components read their variables from it
// (--table-vertical-spacing, --group-gap…). Typed here once, so no style needs a cast to carry one.
declare module "react" {
  interface CSSProperties {
    [name: `--${string}`]: string | number | undefined;
  }
}
