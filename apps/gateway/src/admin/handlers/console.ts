import type { Request, Response } from 'express';
import { readCookie } from '../../http/cookies.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import { SESSION_COOKIE, SESSION_HOURS, type ConsoleSessions } from '../console-sessions.js';
import { adminContext, auditTarget, operatorOf } from '../operator-context.js';
import type { Operator } from '../operator.js';

const sessionWire = (operator: Operator, expiresAt: Date | null) => ({
  operator: { id: operator.id, name: operator.name, access: operator.access, all_merchants: operator.allMerchants, merchant_ids: operator.merchantIds },
  expires_at: expiresAt?.toISOString() ?? null,
});

function cookie(req: Request, value: string, maxAgeSeconds: number): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/admin', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(req.secure ? ['Secure'] : [])].join('; ');
}

/** Console sign-in, who is signed in, sign-out (console-sessions.ts). */
export function consoleOperations(sessions: ConsoleSessions): OperationHandlers {
  const presentedSession = (req: Request) => (req.get('authorization') ? undefined : readCookie(req, SESSION_COOKIE));
  return {
    createConsoleSession: async (req, res: Response) => {
      const operator = operatorOf(req);
      auditTarget(req, operator.id);
      const session = await sessions.open(operator);
      res.setHeader('Set-Cookie', cookie(req, session.token, SESSION_HOURS * 3600));
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(sessionWire(operator, session.expiresAt));
    },
    getConsoleSession: (req, res) => {
      res.json(sessionWire(operatorOf(req), adminContext(req).sessionExpiresAt ?? null));
    },
    deleteConsoleSession: async (req, res) => {
      auditTarget(req, operatorOf(req).id);
      const token = presentedSession(req);
      if (token) await sessions.close(token);
      res.setHeader('Set-Cookie', cookie(req, '', 0));
      res.status(204).end();
    },
  };
}
