/**
 * Issue 10 "Money totals can overflow", on SQLite and (with TEST_DATABASE_URL) PostgreSQL. On SQLite,
 * 93 adjustments of 99,999,999,999.999999 USDT turned a day counter into a float; the bill list and the
 * asset query answered 500 from then on, and reversing everything left the day totals wrong. Now every
 * amount and balance has a ceiling (domain/money.ts AssetCeiling), checked on input; a credit past it is
 * refused; and a sum that would still pass 2^63 is refused by the database, never stored as a float.
 */
import { sql } from 'kysely';
import { Assets } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import { AssetCeiling } from '../../../domain/money';
import { counter, moveCounter } from '../../../server/db/counters';
import { SUM_OVERFLOW_MESSAGE } from '../../../server/db/overflow';
import {
  applyChange,
  billStatViolations,
  ledgerTotals,
  ledgerViolations,
} from '../../../server/modules/ledger/ledger.service';
import { build, dbKind, type TestApp } from '../helpers';
import { addMember } from '../modules/deposits/fixtures';

const MAX_INT64 = 2n ** 63n - 1n;

describe(`money ceilings (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  const adjust = (id: number, amount: string, asset = 'USDT') =>
    t.call('POST', '/v1/admin/member/opt', {
      token,
      body: { id, action: 'adjust', asset, amount, remark: '调整' },
    });
  const billSums = async () => (await t.call('GET', '/v1/admin/bill', { token, query: { asset: 'USDT' } })).data;
  const assetSums = async () => (await t.call('GET', '/v1/admin/query/list', { token, query: { asset: 'USDT' } })).data;
  /** Every stored money sum and balance is an integer (SQLite would keep a float there). */
  const nonIntegers = async () =>
    dbKind === 'sqlite'
      ? (
          await sql<{ n: number }>`select
            (select count(*) from bill_stat where typeof(change_sum) <> 'integer' or typeof(frozen_change_sum) <> 'integer')
            + (select count(*) from account where typeof(available) <> 'integer' or typeof(frozen) <> 'integer') as n`.execute(
            t.db.db,
          )
        ).rows[0].n
      : 0;

  beforeEach(async () => {
    t = await build();
    token = await t.login();
  });
  afterEach(() => t.close());

  it('refuses the issue’s amount and anything past the ceiling of each asset, naming the field', async () => {
    const m = await addMember(t);
    expect(await adjust(m, '99999999999.999999')).toEqual({ code: 400, msg: '调整金额不能超过100000000', data: null });
    expect(await adjust(m, '-99999999999.999999')).toMatchObject({ code: 400, msg: '调整金额不能超过100000000' });
    expect(await adjust(m, '100000000.000001')).toMatchObject({ code: 400, msg: '调整金额不能超过100000000' });
    expect(await adjust(m, '10000000000.0001', 'LZ')).toMatchObject({ code: 400, msg: '调整金额不能超过10000000000' });
    expect(await adjust(m, '1000000000000.01', 'ENERGY')).toMatchObject({
      code: 400,
      msg: '调整金额不能超过1000000000000',
    });
    for (const asset of Assets) expect(AssetCeiling[asset]).toBe(10n ** 14n);
    expect(await t.db.db.selectFrom('bill').select('id').execute()).toEqual([]);
  });

  it('refuses a credit that would take a balance (available + frozen) past the ceiling; debits still go', async () => {
    const m = await addMember(t);
    expect(await adjust(m, '99999999.999999')).toMatchObject({ code: 200 });
    await t.db.db
      .transaction()
      .execute((trx) =>
        applyChange(trx, { memberId: m, asset: 'USDT', available: -5n, frozen: 5n, type: BillType.withdrawFreeze }, 1),
      );
    expect(await adjust(m, '0.000001')).toMatchObject({
      code: 200,
      data: { balance: { available: '99999999.999995' } },
    });
    const refused = { code: 400, msg: '余额不能超过上限（每个账户最多100000000 USDT）', data: null };
    expect(await adjust(m, '0.000001')).toEqual(refused);
    // The 93 adjustments on one account: the first reaches the ceiling, the rest are refused.
    const other = await addMember(t);
    expect(await adjust(other, '100000000')).toMatchObject({ code: 200 });
    for (let i = 0; i < 92; i++) expect(await adjust(other, '100000000')).toEqual(refused);
    expect(await adjust(other, '-100000000')).toMatchObject({ code: 200, data: { balance: { available: '0' } } });
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });

  it('repeats the issue: 100 ceiling credits and their reversal keep every total exact and every list answering', async () => {
    const members: number[] = [];
    for (let i = 0; i < 100; i++) members.push(await addMember(t));
    for (const m of members) expect(await adjust(m, '100000000')).toMatchObject({ code: 200 });
    // 10^16 minor units: past 2^53, so only integer arithmetic gets these sums right.
    expect((await billSums()).sum.byAsset).toEqual([{ asset: 'USDT', change: '10000000000', frozenChange: '0' }]);
    expect((await assetSums()).sum).toEqual([
      { asset: 'USDT', available: '10000000000', frozen: '0', total: '10000000000' },
    ]);
    expect(await ledgerTotals(t.db.db)).toEqual([{ asset: 'USDT', available: '10000000000000000', frozen: '0' }]);
    for (const m of members) expect(await adjust(m, '-100000000')).toMatchObject({ code: 200 });
    const bills = await billSums();
    expect(bills.total).toBe(200);
    expect(bills.sum.byAsset).toEqual([{ asset: 'USDT', change: '0', frozenChange: '0' }]);
    expect((await assetSums()).sum).toEqual([{ asset: 'USDT', available: '0', frozen: '0', total: '0' }]);
    expect(await ledgerTotals(t.db.db)).toEqual([{ asset: 'USDT', available: '0', frozen: '0' }]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await nonIntegers()).toBe(0);
  });

  it('refuses a write that would take a day total past 2^63, stores no float, and every list still answers', async () => {
    const m = await addMember(t);
    expect(await adjust(m, '1')).toMatchObject({ code: 200 });
    // A day total one ceiling-size credit away from overflowing (as if 92,000 ceilings had been credited).
    await t.db.db
      .updateTable('bill_stat')
      .set({ change_sum: (MAX_INT64 - 5n).toString() })
      .where('kind', '=', 'D')
      .execute();
    const before = await t.db.db.selectFrom('bill').select('id').execute();
    expect(await adjust(m, '1')).toEqual({ code: 400, msg: SUM_OVERFLOW_MESSAGE, data: null });
    expect(await t.db.db.selectFrom('bill').select('id').execute()).toEqual(before);
    expect((await assetSums()).list[0]).toMatchObject({ available: '1' });
    expect(await nonIntegers()).toBe(0);
    const row = await t.db.db
      .selectFrom('bill_stat')
      .select((eb) => eb.cast<string>('change_sum', 'text').as('s'))
      .where('kind', '=', 'D')
      .executeTakeFirstOrThrow();
    expect(row.s).toBe((MAX_INT64 - 5n).toString());
    expect(await t.call('GET', '/v1/admin/bill', { token })).toMatchObject({ code: 200 });
    expect(await adjust(m, '-1')).toMatchObject({ code: 200 }); // a debit brings the total down again
  });

  it('refuses a counter move that would pass 2^63 (status counters of deposits, withdrawals…)', async () => {
    const c = counter({ table: 'deposit_stat', source: 'deposit', keys: ['status'], sums: { amount_sum: 'amount' } });
    await moveCounter(t.db.db, c, null, { status: 0 }, { amount_sum: MAX_INT64 - 10n });
    await expect(
      t.db.db.transaction().execute((trx) => moveCounter(trx, c, null, { status: 0 }, { amount_sum: 11n })),
    ).rejects.toThrow(SUM_OVERFLOW_MESSAGE);
    const row = await t.db.db
      .selectFrom('deposit_stat')
      .select(['n', (eb) => eb.cast<string>('amount_sum', 'text').as('s')])
      .executeTakeFirstOrThrow();
    expect({ n: Number(row.n), s: row.s }).toEqual({ n: 1, s: (MAX_INT64 - 10n).toString() });
  });
});
