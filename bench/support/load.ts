/** A fixed-duration autocannon run, summarised as throughput and latency percentiles. */
import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(url: string, options: { headers?: Record<string, string>; seconds?: number; connections?: number } = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    headers: options.headers ?? {},
    duration: options.seconds ?? 10,
    connections: options.connections ?? 16,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function row(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}  errors ${r.errors}`;
}
