import { AsyncLocalStorage } from 'node:async_hooks';

/** The CLI's two outputs: results on stdout, one-line problems on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Where a command's output goes: the process's stdout and stderr, or — for a command a running
 * gateway runs for a CLI on its local socket — that client's (see ops/local-socket/).
 */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal (progress bars only there). */
  isTTY: boolean;
  /** `--json` was given: results as one JSON document on stdout. */
  json?: boolean;
}

export const processIo: CommandIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  get isTTY() {
    return process.stderr.isTTY === true;
  },
};

const current = new AsyncLocalStorage<CommandIo>();

/** Runs `work` with out/err going to `io`. */
export const withIo = <T>(io: CommandIo, work: () => T): T => current.run(io, work);

export const io = (): CommandIo => current.getStore() ?? processIo;

export const out = (line: string): void => {
  io().stdout(`${line}\n`);
};

export const err = (line: string): void => {
  io().stderr(`${line}\n`);
};

/** `--json`: one JSON document on stdout, for scripts. */
export const outJson = (value: unknown): void => {
  io().stdout(`${JSON.stringify(value, null, 2)}\n`);
};

/** A command's result: `value` as JSON with `--json`, else the lines `text` prints. */
export function result(value: unknown, text: () => void): void {
  if (io().json) outJson(value);
  else text();
}
