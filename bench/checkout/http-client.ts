/**
 * The bench's HTTP client: node:http over keep-alive connections, one per concurrent client. Lighter
 * than fetch (undici), whose own CPU would otherwise be a large part of what the gateway's side of the
 * bench costs the machine's two cores — a cost of the measuring client, not of the gateway.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  body: string;
}

export class BenchClient {
  private readonly agent: Agent;

  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string>,
    connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  post(path: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = payload === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    return new Promise((resolve, reject) => {
      const req = request(`${this.base}${path}`, { method: 'POST', agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
