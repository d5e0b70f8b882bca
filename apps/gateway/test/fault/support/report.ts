/**
 * What the fault suite prints about a run, for a reader of CI's log (never asserted): the errors
 * the gateway logged as unhandled, statuses counted, /readyz's answers as a timeline.
 */
import type { LogLine } from './fault-gateway.js';
import type { Sample } from './traffic.js';

/** The distinct errors the gateway logged as unhandled (answered 500). */
export function unhandledErrors(logs: LogLine[]): string[] {
  const seen = logs.filter((l) => l.msg === 'unhandled error').map((l) => {
    const err = l.err as { type?: string; code?: string; message?: string; meta?: unknown } | undefined;
    return `${err?.type} ${err?.code ?? ''} ${JSON.stringify(err?.meta ?? {})} ${err?.message?.split('\n').filter(Boolean).at(-1)}`;
  });
  return [...new Set(seen)];
}

/** Statuses counted: "200×20 429×10". */
export function count(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status}×${n}`).join(' ');
}

/** The readiness answers as runs: "200 ready 0.0–8.0 s, 503 unreachable 8.1–18.2 s, …". */
export function timeline(samples: Sample[]): string {
  const runs: { label: string; from: number; to: number }[] = [];
  for (const s of samples) {
    const label = `${s.status}${s.status === 200 ? '' : ` database=${s.code}`}`;
    const last = runs.at(-1);
    if (last?.label === label) last.to = s.at;
    else runs.push({ label, from: s.at, to: s.at });
  }
  return runs.map((r) => `${r.label} ${(r.from / 1000).toFixed(1)}–${(r.to / 1000).toFixed(1)} s`).join(', ');
}
