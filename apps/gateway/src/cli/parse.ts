import { UsageError } from './output.js';

export function positiveInt(name: string) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
      throw new UsageError(`${name} must be a positive whole number, not ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  };
}

export function choice<T extends string>(name: string, allowed: readonly T[]) {
  return (raw: string): T => {
    if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(raw)}`);
    return raw as T;
  };
}

export function list(raw: string): string[] {
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}
