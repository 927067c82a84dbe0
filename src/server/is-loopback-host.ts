import { isIP } from "node:net";

/** True for hosts only this machine can reach: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) return h === "::1" || h === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(h);
  return false;
}
