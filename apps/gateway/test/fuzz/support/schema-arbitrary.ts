/**
 * fast-check arbitraries generated from the contract's JSON Schemas:
 *  - `valid`: values the schema accepts (lengths and sizes kept small);
 *  - `boundary`: values the schema accepts at its edges (min/max lengths, items,
 *    numbers; empty, blank and non-ASCII strings);
 *  - `malformed(...)`: a valid value with one thing broken somewhere inside it —
 *    a required field dropped, a value of the wrong type, an unknown field, a
 *    number or string out of range — or the whole value replaced.
 * `hints` replace the generated value of a named property (existing ids, safe URLs).
 */
import fc from 'fast-check';

export type Schema = { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Mode = 'valid' | 'boundary';

export interface SchemaArbitraryOptions {
  /** The document `$ref`s point into. */
  root: Schema;
  mode: Mode;
  /** Arbitraries for properties by name, used instead of the schema's own. */
  hints?: Record<string, fc.Arbitrary<unknown>>;
}

export function deref(root: Schema, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 20; hops++) {
    const path = String(current.$ref).replace(/^#\//, '').split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = path.reduce<Schema>((node, part) => node?.[part], root);
  }
  return current ?? {};
}

const TEXT_SAMPLES = ['', ' ', '  \t ', 'é', 'ß', '漢字', '🛒', 'a\u0000b', '\u202e', '"\'<>&', '../..', '%00', 'null', '0'];

function stringArbitrary(schema: Schema, mode: Mode): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? (mode === 'boundary' ? 1_000 : 40);
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (mode === 'valid') return fc.string({ minLength: min, maxLength: Math.min(max, min + 40) });
  return fc.oneof(
    fc.constant('x'.repeat(min)),
    fc.constant('y'.repeat(max)),
    fc.constant('é'.repeat(max)),
    fc.constantFrom(...TEXT_SAMPLES).filter(fits),
    fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, min + 20) }),
  );
}

function numberArbitrary(schema: Schema, mode: Mode): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  if (mode === 'boundary') {
    const edges = [min, max, min + 1, max - 1, integer ? min : min + 0.001].filter((n) => n >= min && n <= max);
    return fc.oneof(fc.constantFrom(...edges), integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
  }
  return integer ? fc.integer({ min, max: Math.min(max, min + 1_000) }) : fc.double({ min, max: Math.min(max, min + 10_000), noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100);
}

export function schemaArbitrary(schema: Schema, options: SchemaArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(options.root, schema);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...(alternatives as Schema[]).map((alt) => schemaArbitrary(alt, options, depth + 1)));
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  switch (s.type) {
    case 'string':
      return stringArbitrary(s, options.mode);
    case 'integer':
    case 'number':
      return numberArbitrary(s, options.mode);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? 5, options.mode === 'boundary' ? (s.maxItems ?? 20) : minLength + 3);
      const items = schemaArbitrary(s.items ?? {}, options, depth + 1);
      return options.mode === 'boundary'
        ? fc.oneof(fc.array(items, { minLength, maxLength: minLength }), fc.array(items, { minLength: maxLength, maxLength }))
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (!s.properties && s.type === undefined) return fc.jsonValue({ maxDepth: 2 });
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        model[name] = options.hints?.[name] ?? schemaArbitrary(property, options, depth + 1);
      }
      const record = fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
      if (s.additionalProperties === true || (typeof s.additionalProperties === 'object' && s.additionalProperties)) {
        const extra = typeof s.additionalProperties === 'object' ? schemaArbitrary(s.additionalProperties, options, depth + 1) : fc.jsonValue({ maxDepth: 2 });
        return fc.tuple(record, fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), extra, { maxKeys: 4 })).map(([base, more]) => ({ ...more, ...base }));
      }
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of a type the schema at that place does not expect, or out of its range. */
const WRONG = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, 0, 1e308, -1e308, 1.5, 2 ** 53 + 1, 1000, 1_000_000),
  fc.string({ maxLength: 10 }),
  fc.constant('z'.repeat(5_000)),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')),
  fc.constant([[[[[]]]]]),
);

type Path = (string | number)[];

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...at, i], out));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  return out;
}

function setAt(value: unknown, path: Path, change: (parent: any, key: string | number) => void): unknown { // eslint-disable-line @typescript-eslint/no-explicit-any
  const copy = structuredClone(value);
  if (path.length === 0) return copy;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy); // eslint-disable-line @typescript-eslint/no-explicit-any
  change(parent, path.at(-1)!);
  return copy;
}

/** A valid value with exactly one thing broken (or the whole value replaced). */
export function malformed(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.nat(), fc.constantFrom('wrong', 'drop', 'unknown', 'whole'), WRONG, fc.string({ minLength: 1, maxLength: 20 }))
    .map(([value, pick, kind, wrong, name]) => {
      const all = paths(value);
      const path = all[pick % all.length]!;
      if (kind === 'whole' || path.length === 0) return kind === 'unknown' && value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [name]: wrong } : wrong;
      if (kind === 'wrong') return setAt(value, path, (parent, key) => (parent[key] = wrong));
      if (kind === 'drop') return setAt(value, path, (parent, key) => (Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key]));
      return setAt(value, path, (parent) => {
        if (parent && typeof parent === 'object' && !Array.isArray(parent)) parent[name] = wrong; // an unknown field beside it
      });
    });
}
