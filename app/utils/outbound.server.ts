import { lookup } from "node:dns/promises";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which servers the app may connect to on an account's behalf (its mail server; webhooks later).
 * A user-supplied host must not reach what only the app's own network can reach: loopback, private
 * (RFC 1918), link-local (cloud metadata at 169.254.169.254), unique-local, CGNAT, multicast and the
 * other reserved ranges are refused — only public unicast addresses pass — unless the operator allows
 * them in OUTBOUND_ALLOW. The check is on the addresses a name resolves to, and the connection goes to
 * the address that was checked (a name cannot resolve to a public address for the check and to a
 * private one for the connection).
 */
export interface OutboundAllowList {
  /** ipaddr.js range names: loopback, private, linkLocal, uniqueLocal, carrierGradeNat. */
  ranges: ReadonlySet<string>;
  subnets: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** Host names allowed whatever they resolve to (lower case, no trailing dot). */
  hosts: ReadonlySet<string>;
}

export const NO_OUTBOUND_EXCEPTIONS: OutboundAllowList = { ranges: new Set(), subnets: [], hosts: new Set() };

const RANGE_NAMES: Record<string, string> = {
  loopback: "loopback",
  private: "private",
  linklocal: "linkLocal",
  uniquelocal: "uniqueLocal",
  cgnat: "carrierGradeNat",
  carriergradenat: "carrierGradeNat",
};
const HOST_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

const normalHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, "");

/**
 * OUTBOUND_ALLOW: comma-separated range names (loopback, private, linklocal, uniquelocal, cgnat),
 * addresses, subnets (10.0.0.0/8, fd00::/8) and host names (mail.internal.example).
 */
export function parseOutboundAllow(value: string): { ok: true; allow: OutboundAllowList } | { ok: false; bad: string } {
  const ranges = new Set<string>();
  const subnets: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const hosts = new Set<string>();
  for (const raw of value.split(",").map((part) => part.trim()).filter(Boolean)) {
    const entry = raw.toLowerCase();
    if (RANGE_NAMES[entry]) ranges.add(RANGE_NAMES[entry]);
    else if (entry.includes("/") && ipaddr.isValidCIDR(entry)) subnets.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry) && net.isIP(entry)) {
      const address = ipaddr.parse(entry);
      subnets.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else if (HOST_NAME.test(normalHost(entry))) hosts.add(normalHost(entry));
    else return { ok: false, bad: raw };
  }
  return { ok: true, allow: { ranges, subnets, hosts } };
}

/** A refused destination; `message` is safe to show to the account that named it. */
export class OutboundRefusedError extends Error {
  constructor(readonly host: string) {
    super(`${host} is on a private or local network, which this server does not connect to`);
    this.name = "OutboundRefusedError";
  }
}

/**
 * The address as IPv4 when it is an IPv6 form of one: IPv4-mapped (::ffff:127.0.0.1) or
 * IPv4-compatible (::127.0.0.1, written ::7f00:1 too; deprecated, but a stack may still route it
 * to the IPv4 address), so that it is judged like that address. Other forms that embed one (NAT64,
 * 6to4, Teredo, ::ffff:0:a.b.c.d) are ranges of their own and never "unicast", so refused.
 */
function parsed(address: string) {
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv4") return ip;
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const [a, b, c, d, e, f, high, low] = v6.parts;
  // Not :: (unspecified) and ::1 (loopback), which are IPv6's own.
  if ([a, b, c, d, e, f].every((part) => part === 0) && (high !== 0 || low > 1)) {
    return ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return ip;
}

/** May the app connect to `address` (which `host` resolved to)? */
export function isOutboundAllowed(address: string, host: string, allow: OutboundAllowList) {
  if (!net.isIP(address)) return false;
  if (allow.hosts.has(normalHost(host))) return true;
  const ip = parsed(address);
  const range = ip.range();
  if (range === "unicast") return true;
  if (allow.ranges.has(range)) return true;
  return allow.subnets.some(([subnet, bits]) => subnet.kind() === ip.kind() && ip.match(subnet, bits));
}

const DNS_TIMEOUT_MS = 5_000;

/**
 * The address to connect to for `host`: every address it resolves to must be allowed (a name that
 * also resolves to a private address is refused, whichever one a connection would pick). Throws
 * OutboundRefusedError, or the resolver's error (ENOTFOUND …).
 */
export async function resolveOutbound(host: string, allow: OutboundAllowList) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: "ETIMEOUT" })), DNS_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    if (addresses.length === 0 || addresses.some(({ address }) => !isOutboundAllowed(address, host, allow))) {
      throw new OutboundRefusedError(host);
    }
    return addresses[0];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A TCP connection to `host`:`port` through the rule: resolved and checked, connected to the checked
 * address, and the peer checked again once connected. For clients that take a ready socket
 * (nodemailer's getSocket, an HTTP agent's createConnection).
 */
export async function connectOutbound({ host, port, allow, timeoutMs }: { host: string; port: number; allow: OutboundAllowList; timeoutMs: number }) {
  const { address } = await resolveOutbound(host, allow);
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(Object.assign(new Error(`Connection to ${host}:${port} timed out`), { code: "ETIMEDOUT" })));
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.removeListener("error", fail);
      if (!socket.remoteAddress || !isOutboundAllowed(socket.remoteAddress, host, allow)) return fail(new OutboundRefusedError(host));
      resolve(socket);
    });
  });
}
