import { io } from './output.js';
/** Progress of long CLI commands, on stderr and only on a terminal. */
export interface Progress {
  phase: string;
  done: number;
  total?: number | undefined;
}

/** A one-line progress bar on a terminal; nothing otherwise. */
export function progressBar(): ((p: Progress) => void) | undefined {
  if (!io().isTTY) return undefined;
  return ({ phase, done, total }) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : 0;
    const bar = total ? `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}` : `${done}`;
    io().stderr(`\r${phase} ${bar}  `);
    if (total && done === total) io().stderr('\n');
  };
}

export const seconds = (started: number) => ((Date.now() - started) / 1000).toFixed(1);
