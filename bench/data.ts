/**
 * `npm run bench:data -- --members 1000000 --bills 10000000 --db sqlite|pg|both`
 *
 * Builds the bulk data set (see bench/data/generate.ts) on a fresh SQLite file (bench/out/bench.db)
 * and/or a fresh PostgreSQL schema `bench` (database of BENCH_PG_URL, default the test database):
 * migrations, permissions and the admin (password BENCH_ADMIN_PASSWORD, default Bench12345) first,
 * then the rows through bulk paths, then indexes, statistics, and the ledger invariant checked over
 * every account with ledgerViolations().
 *
 * Other flags: --deposits N --withdrawals N --payments N (default: one per member), --zones 20, --seed 42,
 * --verify full|none. The LZ economy (bench/data/economy.ts): --pledges N --seeds N (default one per
 * member), --matches N (one per two members), --releases N (pledge_release + seed_release rows, default
 * five per pledge and seed). The mall (bench/data/mall.ts): --products N (default one per 100 members)
 * --orders N (default one per member).
 */
import fs from 'node:fs';
import { createDb, dropPgSchema } from '../server/db/dialect';
import { migrateToLatest } from '../server/db/migrate';
import { ensureSuperAdmin, syncPermissions } from '../server/seed/bootstrap';
import { billStatViolations, ledgerViolations, rebuildBillStats } from '../server/modules/ledger/ledger.service';
import { memberCountViolations, rebuildMemberCounts } from '../server/modules/members/counts.repository';
import { rebuildWithdrawalStats, withdrawalStatViolations } from '../server/modules/withdrawals/withdrawals.repository';
import { depositStatViolations, rebuildDepositStats } from '../server/modules/deposits/deposits.repository';
import { paymentStatViolations, rebuildPaymentStats } from '../server/modules/payments/payments.repository';
import { rebuildTransferStats, transferStatViolations } from '../server/modules/transfers/transfers.repository';
import { pledgeCounterViolations, rebuildPledgeStats } from '../server/modules/pledge/pledge.query';
import { rebuildSeedStats, seedCounterViolations } from '../server/modules/seeds/seeds.query';
import { matchStatViolations, rebuildMatchStats } from '../server/modules/matches/matches.repository';
import { mallStatViolations, rebuildMallStats } from '../server/modules/mall/orders.repository';
import { hashPassword } from '../server/passwords';
import { sql } from 'kysely';
import {
  ADMIN_PASSWORD,
  fmt,
  intFlag,
  log,
  OUT_DIR,
  parseFlags,
  PG_SCHEMA,
  PG_URL,
  SQLITE_FILE,
  strFlag,
} from './lib/args';
import { generate, generatePayments, type Scale } from './data/generate';
import { PgSink, SqliteSink, type BulkSink } from './data/sinks';
import { DEPOSIT_TABLES, PAYMENT_TABLES, TRANSFER_TABLES, WITHDRAWAL_TABLES, recordMapper } from './data/records';
import { ECONOMY_BIG_TABLES, ECONOMY_TABLES } from './data/economy';
import { MALL_BIG_TABLES, MALL_TABLES } from './data/mall';

export interface BuildResult {
  db: 'sqlite' | 'pg';
  seconds: number;
  loadSeconds: number;
  indexSeconds: number;
  verifySeconds: number | null;
  violations: number | null;
  counts: Record<string, number>;
  depositTable: string | null;
  withdrawalTable: string | null;
  paymentTable: string | null;
  transferTable: string | null;
  /** The economy's tables were there and filled. */
  economy: boolean;
  totals: object;
}

async function findTable(sink: BulkSink, names: string[]) {
  for (const n of names) if (await sink.hasTable(n)) return n;
  return null;
}

export async function buildDataSet(kind: 'sqlite' | 'pg', scale: Scale, verify: boolean): Promise<BuildResult> {
  const t0 = Date.now();
  const url = kind === 'sqlite' ? `sqlite:${SQLITE_FILE}` : PG_URL;
  log(`${kind}: fresh database ${kind === 'sqlite' ? SQLITE_FILE : `${PG_URL} schema ${PG_SCHEMA}`}`);
  if (kind === 'sqlite') {
    for (const f of [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`]) fs.rmSync(f, { force: true });
  } else {
    await dropPgSchema(PG_URL, PG_SCHEMA);
  }
  const setup = createDb(url, { pgSchema: kind === 'pg' ? PG_SCHEMA : undefined });
  await migrateToLatest(setup.db);
  await syncPermissions(setup.db);
  await ensureSuperAdmin(setup.db, Date.now(), ADMIN_PASSWORD);
  await setup.close();

  const sink: BulkSink = kind === 'sqlite' ? new SqliteSink(SQLITE_FILE) : new PgSink(PG_URL, PG_SCHEMA);
  if (sink instanceof PgSink) await sink.connect();
  const depositTable = await findTable(sink, DEPOSIT_TABLES);
  const withdrawalTable = await findTable(sink, WITHDRAWAL_TABLES);
  log(`${kind}: deposit table ${depositTable ?? '(none yet)'}, withdrawal table ${withdrawalTable ?? '(none yet)'}`);
  const paymentTable = await findTable(sink, PAYMENT_TABLES);
  const transferTable = await findTable(sink, TRANSFER_TABLES);
  log(`${kind}: payment table ${paymentTable ?? '(none yet)'}, transfer table ${transferTable ?? '(none yet)'}`);
  let economy = true;
  for (const t of ECONOMY_TABLES) if (!(await sink.hasTable(t))) economy = false;
  if (!economy) log(`${kind}: no economy tables yet (${ECONOMY_TABLES.join(', ')}): no pledges, seeds or matches`);
  let mall = true;
  for (const t of MALL_TABLES) if (!(await sink.hasTable(t))) mall = false;
  if (!mall) log(`${kind}: no mall tables yet (${MALL_TABLES.join(', ')}): no products or orders`);
  const big = [
    'zone',
    'member',
    'account',
    'bill',
    ...[depositTable, withdrawalTable, paymentTable, transferTable].filter((x): x is string => !!x),
    ...(economy ? ECONOMY_BIG_TABLES : []),
    ...(mall ? MALL_BIG_TABLES : []),
  ];
  await sink.dropIndexes(big);

  const mapped = async (table: string | null) => {
    if (!table) return undefined;
    const { names, skipped, toRow } = recordMapper(table, await sink.columns(table));
    if (skipped.length) log(`${kind}: ${table}: the generator leaves ${skipped.join(', ')} to their defaults`);
    return async (rows: object[]) => sink.insert(table, names, rows.map(toRow));
  };
  const passwordHash = await hashPassword('Member123');
  const tLoad = Date.now();
  let last = Date.now();
  const totals = await generate(scale, passwordHash, {
    members: sink,
    bills: sink,
    accounts: sink,
    zones: sink,
    deposits: await mapped(depositTable),
    withdrawals: await mapped(withdrawalTable),
    transfers: await mapped(transferTable),
    economy: economy ? sink : undefined,
    mall: mall ? sink : undefined,
    progress: (what, done, total) => {
      const now = Date.now();
      log(
        `${kind}: ${what} ${fmt(done)} / ${fmt(total)} (${((now - tLoad) / 1000).toFixed(0)} s, +${((now - last) / 1000).toFixed(1)} s)`,
      );
      last = now;
    },
  });
  const payments = await mapped(paymentTable);
  if (payments) {
    await generatePayments(scale, scale.payments, payments, (done, total) =>
      log(`${kind}: payment methods ${fmt(done)} / ${fmt(total)}`),
    );
  }
  if (sink instanceof PgSink) await sink.drain();
  const loadSeconds = (Date.now() - tLoad) / 1000;
  log(`${kind}: rows written in ${loadSeconds.toFixed(1)} s: ${JSON.stringify(totals)}`);
  const tIdx = Date.now();
  await sink.rebuildIndexes((m) => log(`${kind}: ${m}`));
  await sink.finish((m) => log(`${kind}: ${m}`));
  const indexSeconds = (Date.now() - tIdx) / 1000;
  await sink.close();

  const check = createDb(url, { pgSchema: kind === 'pg' ? PG_SCHEMA : undefined });
  // member_count (members per zone, level, status; the member/list totals) from the members loaded above.
  await rebuildMemberCounts(check.db);
  // bill_stat (bill totals per day and 32-day block) from the bills loaded above.
  const tStat = Date.now();
  await rebuildBillStats(check.db);
  log(`${kind}: bill_stat rebuilt in ${((Date.now() - tStat) / 1000).toFixed(1)} s`);
  if (withdrawalTable) await rebuildWithdrawalStats(check.db);
  if (depositTable) await rebuildDepositStats(check.db);
  if (paymentTable) await rebuildPaymentStats(check.db);
  if (transferTable) await rebuildTransferStats(check.db);
  if (economy) {
    // The pledge, seed and match counters (global, per member, per day) from the rows loaded above.
    const tEco = Date.now();
    await rebuildPledgeStats(check.db);
    await rebuildSeedStats(check.db);
    await rebuildMatchStats(check.db);
    log(`${kind}: economy counters rebuilt in ${((Date.now() - tEco) / 1000).toFixed(1)} s`);
  }
  if (mall) await rebuildMallStats(check.db);
  const counts: Record<string, number> = {};
  const tables = ['zone', 'member', 'account', 'bill', depositTable, withdrawalTable, paymentTable, transferTable];
  if (economy) tables.push(...ECONOMY_TABLES);
  if (mall) tables.push(...MALL_TABLES);
  for (const t of tables) {
    if (!t) continue;
    const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(check.db);
    counts[t] = Number(r.rows[0].n);
  }
  let verifySeconds: number | null = null;
  let violations: number | null = null;
  if (verify) {
    const tv = Date.now();
    const bad = await ledgerViolations(check.db);
    verifySeconds = (Date.now() - tv) / 1000;
    // Every counter kept in the writing transaction, rebuilt above, checked against its rows.
    const counters: Array<[string, string | null | undefined, (db: typeof check.db) => Promise<unknown[]>]> = [
      ['member_count, member_phone_count', 'member', memberCountViolations],
      ['bill_stat', 'bill', billStatViolations],
      ['withdrawal_stat', withdrawalTable, withdrawalStatViolations],
      ['deposit_stat', depositTable, depositStatViolations],
      ['payment_stat', paymentTable, paymentStatViolations],
      ['transfer_stat', transferTable, transferStatViolations],
      ['pledge_stat, pledge_member_stat, pledge_release_stat', economy ? 'pledge' : null, pledgeStatRows],
      ['seed_stat, seed_member_stat, seed_release_stat', economy ? 'seed' : null, seedStatRows],
      ['match_stat, match_seller_stat, match_buyer_stat', economy ? 'match_trade' : null, matchStatViolations],
      ['order_stat', mall ? 'mall_order' : null, mallStatViolations],
    ];
    violations = bad.length;
    for (const [name, table, checkRows] of counters) {
      if (!table) continue;
      const wrong = await checkRows(check.db);
      if (wrong.length) log(`${kind}: ${name} differs from ${table}: ${JSON.stringify(wrong.slice(0, 3))}`);
      violations += wrong.length;
    }
    log(
      `${kind}: ledgerViolations() over all ${fmt(counts.account)} accounts: ${bad.length} in ${verifySeconds.toFixed(1)} s`,
    );
    if (bad.length) log(`${kind}: first violations ${JSON.stringify(bad.slice(0, 3))}`);
  }
  await check.close();
  const seconds = (Date.now() - t0) / 1000;
  log(`${kind}: done in ${seconds.toFixed(1)} s ${JSON.stringify(counts)}`);
  return {
    db: kind,
    seconds,
    loadSeconds,
    indexSeconds,
    verifySeconds,
    violations,
    counts,
    depositTable,
    withdrawalTable,
    paymentTable,
    transferTable,
    economy,
    totals,
  };
}

/** The pledge counters' violations as one list (pledge_stat and pledge_release_stat). */
async function pledgeStatRows(db: Parameters<typeof pledgeCounterViolations>[0]): Promise<unknown[]> {
  const v = await pledgeCounterViolations(db);
  return [...v.pledges, ...v.members, ...v.releases];
}

async function seedStatRows(db: Parameters<typeof seedCounterViolations>[0]): Promise<unknown[]> {
  const v = await seedCounterViolations(db);
  return [...v.seeds, ...v.members, ...v.releases];
}

async function main() {
  const flags = parseFlags();
  const members = intFlag(flags, 'members', 1_000_000);
  const scale: Scale = {
    members,
    bills: intFlag(flags, 'bills', members * 10),
    deposits: intFlag(flags, 'deposits', members),
    withdrawals: intFlag(flags, 'withdrawals', members),
    payments: intFlag(flags, 'payments', members),
    zones: intFlag(flags, 'zones', 20),
    seed: intFlag(flags, 'seed', 42),
    end: Math.floor(Date.now() / 3_600_000) * 3_600_000,
    pledges: intFlag(flags, 'pledges', members),
    seeds: intFlag(flags, 'seeds', members),
    matches: intFlag(flags, 'matches', Math.floor(members / 2)),
    products: intFlag(flags, 'products', Math.max(10, Math.floor(members / 100))),
    orders: intFlag(flags, 'orders', members),
  };
  scale.releases = intFlag(flags, 'releases', 5 * (scale.pledges! + scale.seeds!));
  const which = strFlag(flags, 'db', 'both');
  if (!['sqlite', 'pg', 'both'].includes(which)) throw new Error('--db must be sqlite, pg or both');
  const verify = strFlag(flags, 'verify', 'full') !== 'none';
  fs.mkdirSync(OUT_DIR, { recursive: true });
  log(`scale ${JSON.stringify(scale)}`);
  const results: BuildResult[] = [];
  for (const kind of ['sqlite', 'pg'] as const) {
    if (which === kind || which === 'both') results.push(await buildDataSet(kind, scale, verify));
  }
  fs.writeFileSync(`${OUT_DIR}/data-${Date.now()}.json`, JSON.stringify({ scale, results }, null, 2));
  const bad = results.filter((r) => r.violations);
  if (bad.length) {
    console.error(`ledger invariant violated on ${bad.map((r) => r.db).join(', ')}`);
    process.exit(1);
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
