/** The CLI's two outputs: results on stdout, one-line problems on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

export const err = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
