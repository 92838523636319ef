/**
 * Every export of the API by name: what sendExportOf (./send.ts) runs, in the request's thread or in an
 * export worker (./worker.ts), which finds the builder here by the name it is sent. A new export gets a
 * line here and calls `sendExportOf(reply, ctx, '<name>', query, query.format)` from its route.
 */
import type { ExportCtx } from '../context';
import { depositExport } from '../modules/deposits/deposits.service';
import { orderExport } from '../modules/mall/orders.service';
import { paymentExport } from '../modules/payments/payments.service';
import { pledgeExport } from '../modules/pledge/pledge.export';
import { withdrawExport } from '../modules/withdrawals/withdrawals.export';
import type { ExportSpec } from './export';

export const exporters = {
  deposit: depositExport,
  order: orderExport,
  payment: paymentExport,
  pledge: pledgeExport,
  withdraw: withdrawExport,
};

export type ExportName = keyof typeof exporters;

/** What the export `name` takes: its route's query (validated there, plain JSON: it crosses threads). */
export type ExportInput<N extends ExportName> = Parameters<(typeof exporters)[N]>[1];

/** The export's spec, built from its input with `ctx` (throws AppError on input it refuses). */
export function buildExport<N extends ExportName>(
  ctx: ExportCtx,
  name: N,
  input: ExportInput<N>,
): ExportSpec<unknown> | Promise<ExportSpec<unknown>> {
  const build = exporters[name] as (c: ExportCtx, q: unknown) => ExportSpec<unknown> | Promise<ExportSpec<unknown>>;
  return build(ctx, input);
}
