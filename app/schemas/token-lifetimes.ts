/** Token lifetimes offered (days); none means the token lasts until revoked. */
export const TOKEN_LIFETIMES = [30, 90, 365] as const;
