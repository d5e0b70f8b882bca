import { createHash } from 'node:crypto';

/** Distinct statement texts given a name; past that, statements run unnamed (parsed and planned each time). */
const MAX_NAMED = 500;

/**
 * Names for node-postgres's prepared statements: the same text, the same name (`cg_` + 20 hex of its
 * SHA-1), so each pooled connection parses a statement once and PostgreSQL may keep its plan.
 * Checkout's statements are few and large (a completion is one statement of several CTEs): parsing
 * and planning them on every execution was a third of PostgreSQL's CPU per checkout (bench/checkout:
 * PostgreSQL 4.6–5.0 → 2.9–3.1 ms a checkout, gateway 4.7 → 3.9 ms).
 * Bounded: a connection never holds more than MAX_NAMED prepared statements of ours.
 *
 *   client.query({ name: names(text), text, values });
 */
export function preparedNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `cg_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
}
