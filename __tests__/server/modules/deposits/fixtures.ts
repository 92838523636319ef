/**
 * Money fixtures shared by the deposit, withdrawal and ledger tests: members made by createMembers
 * (accounts opened, counted), balances through the ledger, valid chain addresses.
 */
import { randomBytes } from 'node:crypto';
import type { Asset } from '../../../../domain/assets';
import { BillType } from '../../../../domain/bills';
import { parseAsset } from '../../../../domain/money';
import { applyChange } from '../../../../server/modules/ledger/ledger.service';
import { createMembers } from '../../../../server/modules/members/members.service';
import type { TestApp } from '../../helpers';

let seq = 0;

/** A member (status 1 正常 unless given) with all accounts opened at zero. */
export async function addMember(t: TestApp, opts: { status?: number } = {}): Promise<number> {
  seq += 1;
  const n = (process.pid % 1000) * 100000 + seq;
  const [{ id }] = await createMembers(t.db.db, [
    {
      uid: String(20000000 + n).slice(-8),
      phone: `139${String(n).padStart(8, '0')}`,
      nickname: `会员${seq}`,
      passwordHash: 'x',
      status: opts.status,
      createdAt: t.clock.now(),
    },
  ]);
  return id;
}

/** Credits `amount` (decimal string) to available through the ledger (bill 后台调整). */
export async function credit(t: TestApp, memberId: number, asset: Asset, amount: string): Promise<void> {
  const v = parseAsset(amount, asset);
  if (!v.ok) throw new Error(`bad amount ${amount}`);
  await t.db.db
    .transaction()
    .execute((trx) =>
      applyChange(trx, { memberId, asset, available: v.value, type: BillType.adminAdjust }, t.clock.now()),
    );
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function trc20Address(): string {
  const bytes = randomBytes(33);
  return `T${Array.from(bytes, (b) => BASE58[b % 58]).join('')}`;
}
export const erc20Address = () => `0x${randomBytes(20).toString('hex')}`;
export const trc20Tx = () => randomBytes(32).toString('hex');
export const erc20Tx = () => `0x${randomBytes(32).toString('hex')}`;

/** An enabled receiving address written straight into the table. */
export async function addDepositAccount(t: TestApp, chain: 'TRC20' | 'ERC20' = 'TRC20', status = 1) {
  const address = chain === 'TRC20' ? trc20Address() : erc20Address();
  const now = t.clock.now();
  const r = await t.db.db
    .insertInto('deposit_account')
    .values({ chain, address, qr_url: '', status, remark: '', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(r.id), address };
}

export async function billsOf(t: TestApp, memberId: number) {
  return t.db.db
    .selectFrom('bill')
    .select(['type', 'asset', 'ref_kind', 'ref_id'])
    .select((eb) => [
      eb.cast<string>('change', 'text').as('change'),
      eb.cast<string>('frozen_change', 'text').as('frozen'),
    ])
    .where('member_id', '=', memberId)
    .orderBy('id')
    .execute();
}
