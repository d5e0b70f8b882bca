/** The contract's operations as a route table: method + path template → operationId and scopes. */
import { loadContract, type OpenApiDocument, type OpenApiOperation } from './document.js';

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  scopes: string[];
  /** The operation takes a request body (PATCH, and POST with one). */
  acceptsBody: boolean;
  /** The operation takes NDJSON text (`application/x-ndjson`, a catalog file) as well as JSON. */
  acceptsNdjson?: boolean;
}

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

const takesNdjson = (op: OpenApiOperation): boolean => {
  const content = (op.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  return content !== undefined && 'application/x-ndjson' in content;
};

interface CompiledPath {
  path: string;
  pattern: RegExp;
  names: string[];
  byMethod: Map<string, Operation>;
}

export class OperationTable {
  private readonly paths: CompiledPath[];

  constructor(document: OpenApiDocument = loadContract()) {
    this.paths = Object.entries(document.paths).map(([path, item]) => {
      const names: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const byMethod = new Map<string, Operation>();
      for (const method of METHODS) {
        const op = item[method] as OpenApiOperation | undefined;
        if (op) {
          byMethod.set(method.toUpperCase(), {
            operationId: op.operationId,
            method: method.toUpperCase(),
            path,
            scopes: op['x-scopes'] ?? [],
            acceptsBody: op.requestBody !== undefined,
            ...(takesNdjson(op) ? { acceptsNdjson: true } : {}),
          });
        }
      }
      return { path, pattern: new RegExp(`^${source}/?$`), names, byMethod };
    });
    // Literal segments win over parameters: /acp/products/search before /acp/products/{product_id}.
    this.paths.sort((a, b) => a.names.length - b.names.length);
  }

  match(method: string, pathname: string): RouteMatch {
    for (const compiled of this.paths) {
      const found = compiled.pattern.exec(pathname);
      if (!found) continue;
      // HEAD is GET without the body (RFC 9110 §9.3.2), wherever GET is served.
      const upper = method.toUpperCase();
      const operation = compiled.byMethod.get(upper) ?? (upper === 'HEAD' ? compiled.byMethod.get('GET') : undefined);
      if (!operation) {
        const allowed = [...compiled.byMethod.keys()];
        return { kind: 'method_not_allowed', allowed: allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed };
      }
      const params: Record<string, string> = {};
      compiled.names.forEach((name, i) => {
        params[name] = decodeURIComponent(found[i + 1]!);
      });
      return { kind: 'operation', operation, params };
    }
    return { kind: 'not_found' };
  }

  all(): Operation[] {
    return this.paths.flatMap((p) => [...p.byMethod.values()]);
  }
}
