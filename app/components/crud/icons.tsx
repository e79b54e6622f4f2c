import type { ReactNode, SVGProps } from "react";

// A few line icons (24×24, stroke = currentColor) so the screens need no icon package.

function Icon({ children, size = 18, ...props }: SVGProps<SVGSVGElement> & { size?: number; children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {children}
    </svg>
  );
}

type P = SVGProps<SVGSVGElement> & { size?: number };

export const PlusIcon = (p: P) => (
  <Icon {...p}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);
export const SearchIcon = (p: P) => (
  <Icon {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);
const PENCIL_SHAPE = (
  <>
    <path d="M4 20h4L18.5 9.5a2.12 2.12 0 0 0-3-3L5 17v3" />
    <path d="m13.5 6.5 3 3" />
  </>
);
export const PencilIcon = (p: P) => <Icon {...p}>{PENCIL_SHAPE}</Icon>;
const TRASH_SHAPE = (
  <>
    <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
  </>
);
export const TrashIcon = (p: P) => <Icon {...p}>{TRASH_SHAPE}</Icon>;
const MAIL_SHAPE = (
  <>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </>
);
export const MailIcon = (p: P) => <Icon {...p}>{MAIL_SHAPE}</Icon>;
export const PhoneIcon = (p: P) => (
  <Icon {...p}>
    <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />
  </Icon>
);
export const MapPinIcon = (p: P) => (
  <Icon {...p}>
    <circle cx="12" cy="11" r="3" />
    <path d="M17.7 16.7 13.4 21a2 2 0 0 1-2.8 0l-4.3-4.3a8 8 0 1 1 11.4 0z" />
  </Icon>
);
export const UsersIcon = (p: P) => (
  <Icon {...p}>
    <circle cx="9" cy="7" r="4" />
    <path d="M3 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2M16 3.1a4 4 0 0 1 0 7.8M21 21v-2a4 4 0 0 0-3-3.9" />
  </Icon>
);
export const BuildingIcon = (p: P) => (
  <Icon {...p}>
    <path d="M3 21h18M5 21V7l8-4v18M19 21V11l-6-4M9 9v.01M9 12v.01M9 15v.01M9 18v.01" />
  </Icon>
);
export const CrownIcon = (p: P) => (
  <Icon {...p}>
    <path d="M12 6l4 6 5-4-2 10H5L3 8l5 4z" />
  </Icon>
);
export const StarIcon = (p: P) => (
  <Icon {...p}>
    <path d="m12 17.75-6.17 3.24 1.18-6.87-5-4.86 6.9-1L12 2l3.09 6.26 6.9 1-5 4.86 1.18 6.87z" />
  </Icon>
);
export const BoxIcon = (p: P) => (
  <Icon {...p}>
    <path d="m12 3 8 4.5v9L12 21l-8-4.5v-9z" />
    <path d="m12 12 8-4.5M12 12v9M12 12 4 7.5" />
  </Icon>
);
export const CheckIcon = (p: P) => (
  <Icon {...p}>
    <path d="M5 12l5 5L20 7" />
  </Icon>
);
export const CurrencyIcon = (p: P) => (
  <Icon {...p}>
    <path d="M16.7 8A3 3 0 0 0 14 6h-4a3 3 0 0 0 0 6h4a3 3 0 0 1 0 6h-4a3 3 0 0 1-2.7-2M12 3v3m0 12v3" />
  </Icon>
);
export const TrendingUpIcon = (p: P) => (
  <Icon {...p}>
    <path d="m3 17 6-6 4 4 8-8M14 7h7v7" />
  </Icon>
);
const EYE_SHAPE = (
  <>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
  </>
);
export const EyeIcon = (p: P) => <Icon {...p}>{EYE_SHAPE}</Icon>;
const DOWNLOAD_SHAPE = (
  <>
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </>
);
export const FileIcon = (p: P) => (
  <Icon {...p}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z" />
    <path d="M14 3v5h5M9 13h6M9 17h6" />
  </Icon>
);
export const ClockIcon = (p: P) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);
export const SendIcon = (p: P) => (
  <Icon {...p}>
    <path d="M22 2 11 13M22 2l-7 20-4-9-9-4Z" />
  </Icon>
);

/**
 * The icons a list's cards repeat (a page of estimates has 120 of them): drawn once per page as
 * symbols (ListIconSprite, in the shell) and used by reference, so each costs the page two elements.
 */
const LIST_ICONS = { eye: EYE_SHAPE, download: DOWNLOAD_SHAPE, mail: MAIL_SHAPE, pencil: PENCIL_SHAPE, trash: TRASH_SHAPE };
export type ListIconName = keyof typeof LIST_ICONS;

export function ListIconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" style={{ position: "absolute", overflow: "hidden" }}>
      {Object.entries(LIST_ICONS).map(([name, shape]) => (
        <symbol key={name} id={`list-icon-${name}`} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
          {shape}
        </symbol>
      ))}
    </svg>
  );
}

/** One of the list icons, by reference to the shell's sprite. */
export function ListIcon({ name, size = 16 }: { name: ListIconName; size?: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size}>
      <use href={`#list-icon-${name}`} />
    </svg>
  );
}
