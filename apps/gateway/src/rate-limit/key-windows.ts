/**
 * An API key's two windows — the minute's and the day's — counted in one Redis round trip: a
 * script counts the request in the minute window and, unless the minute's limit refuses it, in
 * the day's (as the edge's rate limiter does in two steps over express-rate-limit's Store port).
 * The counters are rate-limit-redis's own — the same keys, and the same arithmetic as its
 * increment script — so replicas counting either way share one budget (a rolling deploy mixes them).
 * One Redis, as REDIS_URL names (a Redis Cluster would refuse a script over keys of two slots).
 */
import type { ClientRateLimitInfo } from 'express-rate-limit';

export interface KeyWindowCounts {
  minute: ClientRateLimitInfo;
  /** Undefined when the minute's window refused the request (it is not counted in the day's). */
  day: ClientRateLimitInfo | undefined;
}

export interface KeyWindows {
  count(key: string, minuteLimit: number): Promise<KeyWindowCounts>;
}

/** rate-limit-redis's increment, once per window (KEYS[i], ARGV[i]: window ms); ARGV[3]: the minute's limit. */
const SCRIPT = `
local function increment(key, windowMs)
  local timeToExpire = redis.call("PTTL", key)
  if timeToExpire <= 0 then
    redis.call("SET", key, 1, "PX", windowMs)
    return 1, windowMs
  end
  return redis.call("INCR", key), timeToExpire
end
local minuteHits, minuteTtl = increment(KEYS[1], tonumber(ARGV[1]))
if minuteHits > tonumber(ARGV[3]) then return { minuteHits, minuteTtl } end
local dayHits, dayTtl = increment(KEYS[2], tonumber(ARGV[2]))
return { minuteHits, minuteTtl, dayHits, dayTtl }
`.trim();

type SendCommand = (...args: string[]) => Promise<unknown>;

const isNoScript = (error: unknown) => error instanceof Error && /^NOSCRIPT(?:\s|$)/.test(error.message);

export function redisKeyWindows(
  sendCommand: SendCommand,
  { minutePrefix, dayPrefix, minuteMs = 60_000, dayMs = 86_400_000 }: { minutePrefix: string; dayPrefix: string; minuteMs?: number; dayMs?: number },
): KeyWindows {
  let sha: Promise<string> | undefined;
  const load = () => (sha = sendCommand('SCRIPT', 'LOAD', SCRIPT).then(String));
  const run = async (key: string, minuteLimit: number) =>
    sendCommand('EVALSHA', await (sha ?? load()), '2', `${minutePrefix}${key}`, `${dayPrefix}${key}`, String(minuteMs), String(dayMs), String(minuteLimit));
  return {
    async count(key, minuteLimit) {
      let reply: unknown;
      try {
        reply = await run(key, minuteLimit);
      } catch (error) {
        if (!isNoScript(error)) {
          sha = undefined; // e.g. Redis was away when the script was loaded: load it again next time
          throw error;
        }
        load(); // Redis restarted and forgot the script
        reply = await run(key, minuteLimit);
      }
      return decode(reply);
    },
  };
}

function decode(reply: unknown): KeyWindowCounts {
  if (!Array.isArray(reply) || (reply.length !== 2 && reply.length !== 4)) throw new TypeError(`unexpected rate-limit script reply ${JSON.stringify(reply)}`);
  const now = Date.now();
  const info = (hits: unknown, ttl: unknown): ClientRateLimitInfo => ({ totalHits: Number(hits), resetTime: new Date(now + Number(ttl)) });
  return { minute: info(reply[0], reply[1]), day: reply.length === 4 ? info(reply[2], reply[3]) : undefined };
}
