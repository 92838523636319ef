/**
 * What `npm run bench:smoke` (bench/smoke.ts) calls a benchmark that stopped working: anything it
 * skipped, any error or non-2xx answer under load, an export short of the table's rows, a batch or a
 * settlement that did not do its work exactly once, a broken ledger or counter, a list page without
 * rows. Never a time or a rate: those mean nothing on the smoke's tiny data set.
 */
import type { BuildResult } from '../data';
import type { ScenarioResult } from '../api/suite';
import type { ExportResult } from '../exports';
import type { BatchResult } from '../batch';
import type { BuyersResult } from '../buyers';
import type { SettleBenchResult } from '../settle';
import type { WebResult } from '../web';

export interface SmokeResults {
  data: BuildResult[];
  api: ScenarioResult[];
  exports: ExportResult[];
  batch: BatchResult[];
  buyers: BuyersResult[];
  settle: SettleBenchResult[];
  web?: WebResult;
}

/**
 * The menu pages the smoke opens in Chromium besides /login: two list pages, enough to show the web
 * suite works (every page is used by the browser tests; a page takes the suite ~1 s cold and warm, and
 * up to 30 s more waiting for a network idle the live feed may never give).
 */
export const SMOKE_PAGES: readonly string[] = ['memberListLayout', 'orderLayout'];

export function smokeProblems(r: SmokeResults): string[] {
  const out: string[] = [];
  for (const d of r.data) if (d.violations) out.push(`data ${d.db}: ${d.violations} ledger or counter violations`);
  for (const s of r.api) {
    const at = `api ${s.db} ${s.name}`;
    if (s.skipped) {
      out.push(`${at}: ${s.skipped}`);
      continue;
    }
    for (const [side, f] of [
      ['real', s.real],
      ['floor', s.floor],
    ] as const) {
      if (!f) out.push(`${at}: no ${side} run`);
      else if (f.errors || f.non2xx) out.push(`${at}: ${side} had ${f.errors} errors, ${f.non2xx} non-2xx answers`);
      else if (!(f.rps > 0)) out.push(`${at}: ${side} answered no request`);
    }
  }
  if (!r.api.length) out.push('api: no scenario ran');
  for (const e of r.exports) {
    const at = `export ${e.db} ${e.name} ${e.format}`;
    if (e.skipped) out.push(`${at}: ${e.skipped}`);
    else if (!(e.rows > 0) || !(e.bytes > 0)) out.push(`${at}: ${e.rows} rows, ${e.bytes} bytes`);
    else if (e.csvLines !== undefined && e.csvLines !== e.rows + 1)
      out.push(`${at}: ${e.csvLines} CSV lines for ${e.rows} rows and a header`);
  }
  if (!r.exports.length) out.push('export: none ran');
  for (const b of r.batch) {
    const at = `batch ${b.db}`;
    if (b.skipped) out.push(`${at}: ${b.skipped}`);
    else if (!(b.count > 0) || b.succeeded !== b.count || b.approvedInDb !== b.count || b.opLogRows !== b.count)
      out.push(
        `${at}: ${b.count} ids, ${b.succeeded} succeeded, ${b.approvedInDb} approved, ${b.opLogRows} op-log rows`,
      );
    else if (b.repeatSucceeded !== 0) out.push(`${at}: the same batch again approved ${b.repeatSucceeded}`);
  }
  for (const b of r.buyers) {
    const at = `buyers ${b.db}`;
    if (b.skipped) out.push(`${at}: ${b.skipped}`);
    else if (b.orders !== b.stock || b.stockLeft !== 0 || b.bills !== b.orders)
      out.push(`${at}: stock ${b.stock} gave ${b.orders} orders, ${b.bills} bills, ${b.stockLeft} left`);
    else if (b.ledgerViolations || b.counterViolations)
      out.push(`${at}: ${b.ledgerViolations} ledger, ${b.counterViolations} counter violations`);
    else if (Object.keys(b.refusals).some((m) => m.startsWith('unexpected')))
      out.push(`${at}: refusals ${JSON.stringify(b.refusals)}`);
  }
  for (const s of r.settle) {
    const at = `settle ${s.db}`;
    if (s.skipped) out.push(`${at}: ${s.skipped}`);
    else if (s.outcome !== 'done') out.push(`${at}: ${s.day} ${s.outcome}${s.error ? ` (${s.error})` : ''}`);
    else if (!(s.pledges + s.seeds > 0) || !(s.releaseRows > 0)) out.push(`${at}: ${s.day} paid nothing`);
    else if (s.againOutcome !== 'already') out.push(`${at}: the same day again was ${s.againOutcome}`);
    else if (s.ledgerViolations || s.counterViolations)
      out.push(`${at}: ${s.ledgerViolations} ledger, ${s.counterViolations} counter violations`);
  }
  if (r.web) {
    if (!(r.web.login.jsBytesUsable > 0)) out.push('web /login: no JS measured');
    for (const want of SMOKE_PAGES)
      if (!r.web.pages.some((p) => p.path.includes(want))) out.push(`web: no menu page ${want}`);
    for (const p of r.web.pages)
      if (p.firstRowMs === null) out.push(`web ${p.path} ${p.title ?? ''}: no data row on screen`);
  }
  return out;
}
