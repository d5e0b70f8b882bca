/**
 * Bounded client traffic for the fault suite: every request has a deadline
 * (a request that misses it counts as a hang), and each answer is kept as a
 * sample with its time, status, error code and latency.
 */
export interface Sample {
  /** ms since the traffic started */
  at: number;
  op: string;
  /** HTTP status; 0 = no answer within the deadline (a hang); -1 = connection failed. */
  status: number;
  ms: number;
  code?: string | undefined;
  body?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const DEADLINE_MS = 15_000;

export class Traffic {
  readonly samples: Sample[] = [];
  readonly started = performance.now();

  now(): number {
    return performance.now() - this.started;
  }

  async send(op: string, url: string, init: { method?: string; key?: string; json?: unknown } = {}): Promise<Sample> {
    const headers: Record<string, string> = {};
    if (init.key) headers['X-ACP-API-Key'] = init.key;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const at = this.now();
    let sample: Sample;
    try {
      const response = await fetch(url, {
        method: init.method ?? 'GET',
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(DEADLINE_MS),
      });
      const text = await response.text();
      let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      sample = { at, op, status: response.status, ms: this.now() - at, code: body?.code ?? body?.error?.type ?? body?.status, body };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      sample = { at, op, status: timedOut ? 0 : -1, ms: this.now() - at, code: timedOut ? 'hang' : (error as Error).message };
    }
    this.samples.push(sample);
    return sample;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One line per phase: requests, statuses, p99 and max latency. */
export function summarize(samples: Sample[], phases: { name: string; from: number; to: number }[]): string[] {
  return phases.map(({ name, from, to }) => {
    const within = samples.filter((s) => s.at >= from && s.at < to);
    const statuses = new Map<string, number>();
    for (const s of within) {
      const label = s.status >= 400 || s.status <= 0 ? `${s.status} ${s.code ?? ''}`.trim() : String(s.status);
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }
    const counts = [...statuses.entries()].sort().map(([status, n]) => `${status}×${n}`).join(', ');
    const ms = within.map((s) => s.ms);
    return `${name.padEnd(28)} ${String(within.length).padStart(6)} requests   p99 ${percentile(ms, 99).toFixed(0).padStart(5)} ms   max ${Math.max(0, ...ms).toFixed(0).padStart(5)} ms   ${counts}`;
  });
}
