import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectOutbound,
  isOutboundAllowed,
  NO_OUTBOUND_EXCEPTIONS,
  OutboundRefusedError,
  parseOutboundAllow,
  resolveOutbound,
} from "./outbound.server";

const allowOf = (value: string) => {
  const parsed = parseOutboundAllow(value);
  if (!parsed.ok) throw new Error(`bad allow list: ${parsed.bad}`);
  return parsed.allow;
};

describe("the outbound rule", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback elsewhere in 127/8", "127.45.6.7"],
    ["IPv6 loopback", "::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["the unspecified address (reaches this host)", "0.0.0.0"],
    ["IPv6 unspecified", "::"],
    ["private 10/8", "10.1.2.3"],
    ["private 172.16/12", "172.31.255.1"],
    ["private 192.168/16", "192.168.1.1"],
    ["cloud metadata (link-local)", "169.254.169.254"],
    ["IPv6 link-local", "fe80::1"],
    ["AWS IPv6 metadata (unique-local)", "fd00:ec2::254"],
    ["unique-local", "fc00::1"],
    ["CGNAT (Alibaba metadata 100.100.100.200)", "100.100.100.200"],
    ["multicast", "224.0.0.1"],
    ["broadcast", "255.255.255.255"],
    ["reserved (192.0.0.192, Oracle metadata)", "192.0.0.192"],
    ["NAT64 of a private address", "64:ff9b::a00:1"],
    ["6to4 of a private address", "2002:a00:1::1"],
    ["IPv4-compatible loopback", "::7f00:1"],
    ["IPv4-compatible loopback, dotted", "::127.0.0.1"],
    ["IPv4-compatible private", "::10.0.0.1"],
    ["IPv4-compatible cloud metadata (link-local)", "::169.254.169.254"],
    ["IPv4-compatible CGNAT", "::100.64.0.1"],
    ["IPv4-compatible of 0.0.0.2 (this network)", "::2"],
    ["SIIT (::ffff:0:a.b.c.d) of loopback", "::ffff:0:127.0.0.1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["not an address", "localhost"],
  ])("refuses %s (%s)", (_, address) => {
    expect(isOutboundAllowed(address, "mail.example", NO_OUTBOUND_EXCEPTIONS)).toBe(false);
  });

  it.each(["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("lets a public address through (%s)", (address) => {
    expect(isOutboundAllowed(address, "mail.example", NO_OUTBOUND_EXCEPTIONS)).toBe(true);
  });

  it("lets through what the operator allows: range names, subnets, addresses and host names", () => {
    const allow = allowOf("loopback, 10.0.0.0/8, 192.168.5.7, fd12::/16, mail.internal.example.");
    expect(isOutboundAllowed("127.0.0.1", "x", allow)).toBe(true);
    expect(isOutboundAllowed("::1", "x", allow)).toBe(true);
    expect(isOutboundAllowed("::ffff:127.0.0.1", "x", allow)).toBe(true);
    expect(isOutboundAllowed("::127.0.0.1", "x", allow)).toBe(true);
    expect(isOutboundAllowed("10.9.9.9", "x", allow)).toBe(true);
    expect(isOutboundAllowed("192.168.5.7", "x", allow)).toBe(true);
    expect(isOutboundAllowed("fd12:1::1", "x", allow)).toBe(true);
    expect(isOutboundAllowed("192.168.5.8", "x", allow)).toBe(false);
    expect(isOutboundAllowed("169.254.169.254", "x", allow)).toBe(false);
    expect(isOutboundAllowed("172.16.0.1", "MAIL.internal.example", allow)).toBe(true);
    expect(isOutboundAllowed("172.16.0.1", "mail.internal.example.evil", allow)).toBe(false);
    expect(isOutboundAllowed("100.64.0.1", "x", allowOf("cgnat"))).toBe(true);
    expect(isOutboundAllowed("169.254.1.1", "x", allowOf("linklocal"))).toBe(true);
    expect(isOutboundAllowed("fd00::1", "x", allowOf("uniquelocal"))).toBe(true);
    expect(isOutboundAllowed("10.0.0.1", "x", allowOf("private"))).toBe(true);
  });

  it("refuses an allow list it cannot read", () => {
    expect(parseOutboundAllow("loopback, 10.0.0.0/33")).toEqual({ ok: false, bad: "10.0.0.0/33" });
    expect(parseOutboundAllow("everything")).toMatchObject({ ok: true });
    expect(parseOutboundAllow("*")).toEqual({ ok: false, bad: "*" });
    expect(parseOutboundAllow("http://mail.example")).toEqual({ ok: false, bad: "http://mail.example" });
  });

  it.each(["localhost", "127.0.0.1", "127.1", "2130706433", "0x7f000001", "::1", "::ffff:7f00:1", "::7f00:1", "::127.0.0.1", "169.254.169.254", "0"])(
    "checks what %s resolves to, not how it is written",
    async (host) => {
      await expect(resolveOutbound(host, NO_OUTBOUND_EXCEPTIONS)).rejects.toBeInstanceOf(OutboundRefusedError);
    },
  );
});

describe("connectOutbound", () => {
  let server: net.Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections += 1;
      socket.on("error", () => undefined);
      socket.end("220 hello\r\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("does not connect to a refused address at all", async () => {
    await expect(connectOutbound({ host: "127.0.0.1", port, allow: NO_OUTBOUND_EXCEPTIONS, timeoutMs: 2000 })).rejects.toThrow(
      "127.0.0.1 is on a private or local network, which this server does not connect to",
    );
    await expect(connectOutbound({ host: "localhost", port, allow: NO_OUTBOUND_EXCEPTIONS, timeoutMs: 2000 })).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    expect(connections).toBe(0);
  });

  it("connects to an allowed one, to the address it checked", async () => {
    const socket = await connectOutbound({ host: "localhost", port, allow: allowOf("loopback"), timeoutMs: 2000 });
    expect(socket.remoteAddress).toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
    socket.destroy();
    expect(connections).toBe(1);
  });
});
