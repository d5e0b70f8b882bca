/**
 * The crash test's hook (test/crash): `PAYMENT_FAULT_AT=<step>[:<n>]` SIGKILLs this process the
 * n-th time (default 1st) it reaches `step` of the payment path — as a power cut would, with no
 * cleanup. Honoured only outside production (GATEWAY_ENV); anywhere else it does nothing.
 */
import { paymentFaultAt } from '../../config/standalone-settings.js';

export type FaultStep = 'authorize-recorded' | 'psp-authorized' | 'order-committed' | 'capture-called';

const setting = paymentFaultAt();
const [faultStep, nth] = (setting ?? '').split(':');
let remaining = Number(nth ?? 1) || 1;

export function faultPoint(step: FaultStep): void {
  if (!setting || step !== faultStep) return;
  remaining -= 1;
  if (remaining === 0) process.kill(process.pid, 'SIGKILL');
}
