/**
 * CPU time (user + system, ms) of processes, read from /proc (Linux): to say where a machine's cores
 * went during a round — the client, the server under test, PostgreSQL — rather than guess it from
 * one process's profile (a profile counts as "busy" the time its process waited for a core).
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuOf(pid: number | 'self'): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  } catch {
    return 0; // not Linux, or the process is gone
  }
}

/** CPU ms of every process whose command name is `name` (e.g. all PostgreSQL backends). */
function cpuOfCommand(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) total += cpuOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export interface CpuReading {
  client: number;
  server: number;
  postgres: number;
}

/** A reading now: this process (the client), the server's pid, and every `postgres` process. */
export function readCpu(serverPid: number | undefined): CpuReading {
  return { client: cpuOf('self'), server: serverPid === undefined ? 0 : cpuOf(serverPid), postgres: cpuOfCommand('postgres') };
}

export function cpuSince(before: CpuReading, serverPid: number | undefined): CpuReading {
  const now = readCpu(serverPid);
  return { client: now.client - before.client, server: now.server - before.server, postgres: now.postgres - before.postgres };
}
