/**
 * Query shapes, measured on the floor server alone (bare Fastify + driver, no application): the same
 * page of members or bills asked the slow way (COUNT(*) of everything, LIKE that cannot use an index,
 * OFFSET) and the fast way (capped count, prefix as an index range, keyset). These are the figures
 * behind the proposals in docs/performance.md; the API suite measures what the modules really send.
 */
import fs from 'node:fs';
import { fmt, log, OUT_DIR } from '../lib/args';
import { startServer } from '../lib/proc';
import type { CapturedQuery } from './server';
import type { Sample } from './samples';
import { cannon, type RunFigures } from './suite';

export interface Shape {
  name: string;
  what: string;
  group: string;
  queries: CapturedQuery[];
}

/** The cap of a capped count: "10,000+" in the UI beyond it. */
export const COUNT_CAP = 10_000;

const MEMBER_COLS = `m.id, m.uid, m.phone, m.nickname, i.uid as inviter_uid, z.name as zone_name, m.level, m.status,
  m.real_name_status, m.created_at, m.last_login_at,
  (select cast(a.available as text) from account a where a.member_id = m.id and a.asset = 'USDT') as usdt,
  (select cast(a.available as text) from account a where a.member_id = m.id and a.asset = 'LZ') as lz,
  (select cast(a.available as text) from account a where a.member_id = m.id and a.asset = 'ENERGY') as energy`;
const MEMBER_FROM = `member m left join member i on i.id = m.inviter_id left join zone z on z.id = m.zone_id`;
const BILL_COLS = `b.id, m.uid, m.phone, b.asset, b.type, cast(b.change as text) as change,
  cast(b.available_after as text) as available_after, cast(b.frozen_change as text) as frozen_change,
  cast(b.frozen_after as text) as frozen_after, b.ref_kind, b.ref_id, b.remark, b.created_at`;
const BILL_FROM = `bill b join member m on m.id = b.member_id`;

const q = (sql: string, ...params: unknown[]): CapturedQuery => ({ sql: sql.replace(/\s+/g, ' ').trim(), params });
const capped = (from: string, where: string, ...params: unknown[]) =>
  q(`select count(*) as total from (select 1 from ${from} ${where} limit ${COUNT_CAP + 1}) t`, ...params);

export function shapes(s: Sample): Shape[] {
  const p = s.phonePrefix;
  const pNext = p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);
  const memberOffset = Math.floor(s.members * 0.8);
  const billOffset = Math.floor(s.bills * 0.8);
  const memberPage = (where: string, offset: number, ...params: unknown[]) =>
    q(`select ${MEMBER_COLS} from ${MEMBER_FROM} ${where} order by m.id desc limit 20 offset ${offset}`, ...params);
  const billPage = (where: string, offset: number, ...params: unknown[]) =>
    q(`select ${BILL_COLS} from ${BILL_FROM} ${where} order by b.id desc limit 20 offset ${offset}`, ...params);
  const from30 = s.end - 30 * 86_400_000;
  return [
    // members
    {
      group: 'member',
      name: 'm-first-count',
      what: 'page 1 + COUNT(*)',
      queries: [memberPage('', 0), q('select count(*) as total from member')],
    },
    {
      group: 'member',
      name: 'm-first-capped',
      what: `page 1 + count capped at ${fmt(COUNT_CAP)}`,
      queries: [memberPage('', 0), capped('member', '')],
    },
    { group: 'member', name: 'm-first-nocount', what: 'page 1, no count', queries: [memberPage('', 0)] },
    {
      group: 'member',
      name: 'm-phone-like',
      what: `phone LIKE '%${p}%' + COUNT(*)`,
      queries: [
        memberPage(`where m.phone like ?`, 0, `%${p}%`),
        q(`select count(*) as total from member m where m.phone like ?`, `%${p}%`),
      ],
    },
    {
      group: 'member',
      name: 'm-phone-range',
      what: `phone >= '${p}' and < '${pNext}' + COUNT(*)`,
      queries: [
        memberPage(`where m.phone >= ? and m.phone < ?`, 0, p, pNext),
        q(`select count(*) as total from member m where m.phone >= ? and m.phone < ?`, p, pNext),
      ],
    },
    {
      group: 'member',
      name: 'm-phone-range-capped',
      what: `phone range + capped count`,
      queries: [
        memberPage(`where m.phone >= ? and m.phone < ?`, 0, p, pNext),
        capped('member m', `where m.phone >= ? and m.phone < ?`, p, pNext),
      ],
    },
    {
      group: 'member',
      name: 'm-deep-offset',
      what: `OFFSET ${fmt(memberOffset)} + COUNT(*)`,
      queries: [memberPage('', memberOffset), q('select count(*) as total from member')],
    },
    {
      group: 'member',
      name: 'm-deep-keyset',
      what: `keyset (id < cursor) at the same depth + capped count`,
      queries: [memberPage('where m.id < ?', 0, s.members - memberOffset + 1), capped('member', '')],
    },
    // bills
    {
      group: 'bill',
      name: 'b-first-count',
      what: 'page 1 + COUNT(*)',
      queries: [billPage('', 0), q('select count(*) as total from bill')],
    },
    {
      group: 'bill',
      name: 'b-first-capped',
      what: 'page 1 + capped count',
      queries: [billPage('', 0), capped('bill', '')],
    },
    {
      group: 'bill',
      name: 'b-member',
      what: 'one member, page 1 + COUNT(*)',
      queries: [
        billPage('where b.member_id = ?', 0, s.busyMemberId),
        q(
          'select count(*) as total, cast(coalesce(sum(change), 0) as text) as sum from bill where member_id = ?',
          s.busyMemberId,
        ),
      ],
    },
    {
      group: 'bill',
      name: 'b-type-range-count',
      what: 'type 8, last 30 days + COUNT(*)',
      queries: [
        billPage('where b.type = ? and b.created_at >= ? and b.created_at < ?', 0, 8, from30, s.end + 1),
        q(
          'select count(*) as total from bill where type = ? and created_at >= ? and created_at < ?',
          8,
          from30,
          s.end + 1,
        ),
      ],
    },
    {
      group: 'bill',
      name: 'b-type-range-capped',
      what: 'type 8, last 30 days + capped count',
      queries: [
        billPage('where b.type = ? and b.created_at >= ? and b.created_at < ?', 0, 8, from30, s.end + 1),
        capped('bill', 'where type = ? and created_at >= ? and created_at < ?', 8, from30, s.end + 1),
      ],
    },
    {
      group: 'bill',
      name: 'b-deep-offset',
      what: `OFFSET ${fmt(billOffset)} + COUNT(*)`,
      queries: [billPage('', billOffset), q('select count(*) as total from bill')],
    },
    {
      group: 'bill',
      name: 'b-deep-keyset',
      what: 'keyset at the same depth + capped count',
      queries: [billPage('where b.id < ?', 0, s.bills - billOffset + 1), capped('bill', '')],
    },
  ];
}

const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export interface ShapeResult extends RunFigures {
  db: string;
  group: string;
  name: string;
  what: string;
  single: number;
}

export async function runShapes(o: {
  db: 'sqlite' | 'pg';
  sample: Sample;
  connections: number;
  duration: number;
  repeat: number;
  only?: string[];
}) {
  const list = shapes(o.sample).filter((s) => !o.only?.length || o.only.some((p) => s.name.startsWith(p)));
  const scen = Object.fromEntries(
    list.map((s) => [s.name, o.db === 'pg' ? s.queries.map((x) => ({ ...x, sql: toPg(x.sql) })) : s.queries]),
  );
  const file = `${OUT_DIR}/shapes-${o.db}.json`;
  fs.writeFileSync(file, JSON.stringify(scen, null, 1));
  const floor = await startServer('bench/api/server.ts', ['--mode', 'floor', '--db', o.db, '--scenarios', file]);
  const out: ShapeResult[] = [];
  try {
    for (const s of list) {
      const url = `http://127.0.0.1:${floor.port}/floor/${s.name}`;
      const t0 = performance.now();
      const res = await fetch(url);
      await res.text();
      const single = performance.now() - t0;
      if (res.status !== 200) throw new Error(`shape ${s.name}: HTTP ${res.status}`);
      const runs: RunFigures[] = [];
      // A shape slower than ~50 ms alone gets one short run: its figure is clear, the machine is shared.
      const slow = single > 50;
      await cannon(url, { connections: o.connections, duration: 1 });
      for (let i = 0; i < (slow ? 1 : o.repeat); i++)
        runs.push(
          await cannon(url, { connections: o.connections, duration: slow ? Math.min(3, o.duration) : o.duration }),
        );
      runs.sort((a, b) => a.rps - b.rps);
      const m = runs[Math.floor(runs.length / 2)];
      out.push({ db: o.db, group: s.group, name: s.name, what: s.what, single, ...m });
      log(`shape ${o.db} ${s.name}: ${fmt(m.rps)} req/s p50 ${m.p50} p99 ${m.p99} ms (alone ${single.toFixed(1)} ms)`);
    }
  } finally {
    await floor.stop();
  }
  return out;
}
