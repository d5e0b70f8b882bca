/** One request at a time over one keep-alive connection, for `ms`: latency percentiles in ms. */
import http from 'node:http';

export interface Latencies {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export async function oneAtATime(url: string, headers: Record<string, string>, ms: number): Promise<Latencies> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const started = performance.now();
    await new Promise<void>((done, fail) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`${url}: status ${res.statusCode}`))));
        })
        .on('error', fail);
    });
    times.push(performance.now() - started);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { n: times.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
