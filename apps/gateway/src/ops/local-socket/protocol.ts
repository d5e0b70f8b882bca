/**
 * The local socket's protocol (docs/operating.md, "The CLI beside a running gateway"): newline-
 * delimited JSON both ways over a Unix domain socket in the data directory.
 *
 *   CLI → gateway  {"v":1,"args":[…],"files":[{"arg":2,"name":"products.ndjson"}]}
 *                  {"file":0,"data":"<base64>"}…  {"file":0,"end":true}   (each file in turn)
 *   gateway → CLI  {"stdout":"…"} | {"stderr":"…"} …  then  {"exit":<code>}
 *
 * The CLI reads the files a command takes (its cwd is not the server's) and streams them; the
 * gateway writes them to a private temporary directory and runs the command on those paths.
 * Authentication is the socket file's permissions: mode 0600, its owner only.
 */
import { join } from 'node:path';

export const PROTOCOL_VERSION = 1;

export const socketPath = (dataDir: string): string => join(dataDir, 'gateway.sock');

export const pidPath = (dataDir: string): string => join(dataDir, 'gateway.pid');

export interface FileHeader {
  /** Index in args of the path the command reads. */
  arg: number;
  name: string;
}

export interface RequestHeader {
  v: number;
  args: string[];
  files: FileHeader[];
}

export type FileChunk = { file: number; data: string } | { file: number; end: true };

export type Reply = { stdout: string } | { stderr: string } | { exit: number };

export const frame = (message: RequestHeader | FileChunk | Reply): string => `${JSON.stringify(message)}\n`;

/** Flags that take no value (so the word after them is an argument, not their value). */
const BOOLEAN_FLAGS = new Set(['--json', '--signing-secret', '--help', '-h', '--dry-run']);

/**
 * The argument indexes of the files a command line reads: the first positional argument of an
 * `import` (catalog, customers, discounts, shipping: `<group> import <file> --merchant <id>`).
 */
export function fileArguments(args: readonly string[]): number[] {
  if (args[1] !== 'import') return [];
  for (let i = 2; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') return i + 1 < args.length ? [i + 1] : [];
    if (word.startsWith('-')) {
      if (!word.includes('=') && !BOOLEAN_FLAGS.has(word)) i++;
      continue;
    }
    return [i];
  }
  return [];
}
