/** Latency samples (ms) of one checkout, and their summary. */
export interface Sample {
  create: number;
  complete: number;
}

export interface Summary {
  throughput: number;
  p50: number;
  p99: number;
  createP99: number;
  completeP99: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export function summarize(samples: Sample[], seconds: number): Summary {
  const totals = samples.map((s) => s.create + s.complete);
  return {
    throughput: samples.length / seconds,
    p50: percentile(totals, 50),
    p99: percentile(totals, 99),
    createP99: percentile(samples.map((s) => s.create), 99),
    completeP99: percentile(samples.map((s) => s.complete), 99),
  };
}

/** A number right-aligned in `width` columns, one decimal. */
export function pick(value: number, width: number): string {
  return value.toFixed(1).padStart(width);
}
