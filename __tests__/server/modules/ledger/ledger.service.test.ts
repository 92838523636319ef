import { BillType } from '../../../../domain/bills';
import { AssetCeiling } from '../../../../domain/money';
import {
  applyChange,
  balancesOf,
  InsufficientBalance,
  ledgerViolations,
  openAccounts,
} from '../../../../server/modules/ledger/ledger.service';
import { createMembers } from '../../../../server/modules/members/members.service';
import { build, dbKind, type TestApp } from '../../helpers';

describe(`ledger service (${dbKind})`, () => {
  let t: TestApp;
  let memberId: number;
  beforeEach(async () => {
    t = await build();
    const db = t.db.db;
    [{ id: memberId }] = await createMembers(db, [
      { uid: '10000001', phone: '13800000001', nickname: '张三', passwordHash: 'x', createdAt: 1 },
    ]);
    // Already open (createMembers): a second opening changes nothing.
    await openAccounts(db, memberId, 1);
  });
  afterEach(() => t.close());

  it('credits, freezes and debits with one bill each and exact values up to the balance ceiling', async () => {
    const db = t.db.db;
    // An odd value at the ceiling (sums of such values pass 2^53: see __tests__/server/hardening/money.ceiling.test.ts).
    const big = AssetCeiling.USDT - 1n;
    await db.transaction().execute(async (trx) => {
      await applyChange(trx, { memberId, asset: 'USDT', available: big, type: BillType.deposit }, 10);
      await applyChange(
        trx,
        { memberId, asset: 'USDT', available: -3n, frozen: 3n, type: BillType.withdrawFreeze },
        11,
      );
      await applyChange(
        trx,
        { memberId, asset: 'USDT', available: 0n, frozen: -3n, type: BillType.withdrawSuccess },
        12,
      );
    });
    expect((await balancesOf(db, memberId)).USDT).toEqual({ available: big - 3n, frozen: 0n });
    const bills = await db
      .selectFrom('bill')
      .select(['type'])
      .where('member_id', '=', memberId)
      .orderBy('id')
      .execute();
    expect(bills.map((b) => b.type)).toEqual([1, 2, 3]);
    expect(await ledgerViolations(db)).toEqual([]);
  });

  it('refuses to take available or frozen below zero and writes no bill', async () => {
    const db = t.db.db;
    await applyChange(db, { memberId, asset: 'LZ', available: 100n, type: BillType.adminAdjust }, 10);
    await expect(
      applyChange(db, { memberId, asset: 'LZ', available: -101n, type: BillType.adminAdjust }, 11),
    ).rejects.toBeInstanceOf(InsufficientBalance);
    await expect(
      applyChange(db, { memberId, asset: 'LZ', available: 1n, frozen: -1n, type: BillType.withdrawReject }, 11),
    ).rejects.toThrow('冻结余额不足');
    expect(await db.selectFrom('bill').select('id').execute()).toHaveLength(1);
    expect((await balancesOf(db, memberId)).LZ).toEqual({ available: 100n, frozen: 0n });
  });

  it('finds an account that disagrees with its bills', async () => {
    const db = t.db.db;
    await applyChange(db, { memberId, asset: 'ENERGY', available: 5n, type: BillType.adminAdjust }, 10);
    await db
      .updateTable('account')
      .set({ available: 6n })
      .where('member_id', '=', memberId)
      .where('asset', '=', 'ENERGY')
      .execute();
    expect(await ledgerViolations(db)).toHaveLength(1);
  });
});
