import { Box } from "#mantine/core/Box/Box";
import type { BoxProps, MantineSpacing } from "@mantine/core";
import stackClasses from "./Table.module.css";
import { createContext, useContext, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from "react";

/**
 * Mantine's Table with its look (its class names, styled by Mantine's Table.css), without its
 * module: Table.ScrollContainer brings Mantine's ScrollArea, ~7 KB gzip on every page with a table.
 * The scroll container here is a plain overflow box. Table.test.ts checks the class names against
 * the installed Mantine.
 */
export const TABLE_CLASSES = {
  table: "m_b23fa0ef",
  th: "m_4e7aa4f3",
  tr: "m_4e7aa4fd",
  td: "m_4e7aa4ef",
  tbody: "m_b2404537",
  thead: "m_b242d975",
  scrollContainer: "m_a100c15",
  scrollContainerInner: "m_62259741",
} as const;

const RowStyle = createContext<{ striped: boolean; hover: boolean }>({ striped: false, hover: false });

/** Mantine's getSpacing: a theme size or px (as rem). */
const spacing = (value: MantineSpacing | number) =>
  typeof value === "number" ? `calc(${value / 16}rem * var(--mantine-scale))` : `var(--mantine-spacing-${value})`;

type Props<T extends keyof React.JSX.IntrinsicElements> = BoxProps &
  Omit<ComponentPropsWithoutRef<T>, "style"> & { style?: CSSProperties };

type TableProps = Props<"table"> & {
  /** On phones each row stacks as a block of "label value" lines (cells carry data-label). */
  stackOnPhone?: boolean;
  striped?: boolean;
  highlightOnHover?: boolean;
  withTableBorder?: boolean;
  verticalSpacing?: MantineSpacing | number;
};

const classNames = (...names: (string | undefined)[]) => names.filter(Boolean).join(" ");

function TableRoot({ striped = false, highlightOnHover = false, withTableBorder = false, verticalSpacing = 7, stackOnPhone = false, style, className, ...props }: TableProps) {
  const vars: CSSProperties = { "--table-vertical-spacing": spacing(verticalSpacing) };
  return (
    <RowStyle.Provider value={{ striped, hover: highlightOnHover }}>
      <Box
        component="table"
        className={classNames(TABLE_CLASSES.table, stackOnPhone ? stackClasses.stack : undefined, className)}
        style={{ ...vars, ...style }}
        data-with-table-border={withTableBorder || undefined}
        {...props}
      />
    </RowStyle.Provider>
  );
}

/** The table parts: each element with Mantine's class and Mantine's style props (ta, fw…). */
const Thead = ({ className, ...props }: Props<"thead">) => <Box component="thead" className={classNames(TABLE_CLASSES.thead, className)} {...props} />;
const Tbody = ({ className, ...props }: Props<"tbody">) => <Box component="tbody" className={classNames(TABLE_CLASSES.tbody, className)} {...props} />;
const Th = ({ className, ...props }: Props<"th">) => <Box component="th" className={classNames(TABLE_CLASSES.th, className)} {...props} />;
const Td = ({ className, ...props }: Props<"td">) => <Box component="td" className={classNames(TABLE_CLASSES.td, className)} {...props} />;

function Tr({ className, ...props }: Props<"tr">) {
  const { striped, hover } = useContext(RowStyle);
  return (
    <Box
      component="tr"
      className={classNames(TABLE_CLASSES.tr, className)}
      data-with-row-border
      data-striped={striped ? "odd" : undefined}
      data-hover={hover || undefined}
      {...props}
    />
  );
}

/** A horizontally scrolling box for a table wider than the screen; a stacking table's needs no width on phones. */
function ScrollContainer({ minWidth, stackOnPhone = false, children }: { minWidth: number; stackOnPhone?: boolean; children: ReactNode }) {
  // A Tab stop, so a keyboard can scroll a table wider than the screen (WCAG 2.1.1).
  return (
    <div className={TABLE_CLASSES.scrollContainer} tabIndex={0} style={{ "--table-overflow": "auto" }}>
      <div className={classNames(TABLE_CLASSES.scrollContainerInner, stackOnPhone ? stackClasses.stackScroll : undefined)} style={{ "--table-min-width": `calc(${minWidth / 16}rem * var(--mantine-scale))` }}>
        {children}
      </div>
    </div>
  );
}

export const Table = Object.assign(TableRoot, {
  Thead,
  Tbody,
  Th,
  Td,
  Tr,
  ScrollContainer,
});
