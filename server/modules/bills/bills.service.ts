/**
 * Bills and energy changes (DOMAIN.md "Bills and energy"): read-only lists over the ledger's bills.
 *
 * At platform scale (10,000,000 bills): totals and per-asset sums of asset/type/date filters are exact
 * (bill_stat); a member filter counts that member's bills up to BILL_COUNT_CAP (the answer says
 * `totalCapped`, and the sum is null past it); pages go by number within the first MAX_OFFSET rows and
 * by cursor (`after` / `before`) to any depth. See docs/decisions.md "Bills".
 */
import type { Static } from '@sinclair/typebox';
import type { BillQuery } from './bills.schema';
import type { Asset } from '../../../domain/assets';
import { billTypeValues, BillTypeLabels, type BillType } from '../../../domain/bills';
import { formatAsset } from '../../../domain/money';
import type { Ctx } from '../../context';
import { parseRange } from '../../range';
import { pageOf } from '../../db/keyset';
import { listMembers, memberColumnsOf } from '../members/members.query';
import { countMemberBills, findBills, statBills, type BillFilter, type BillSums } from './bills.repository';

export const BILL_COUNT_CAP = 10_000;

export function billTypes() {
  return billTypeValues.map((type) => ({ type, label: BillTypeLabels[type] }));
}

export type BillListInput = Static<typeof BillQuery>;

export async function listBills(ctx: Ctx, q: BillListInput, cap = BILL_COUNT_CAP) {
  const { start, end } = parseRange(q);
  const { page, size, offset, keyset } = pageOf(q);
  const members: BillFilter['members'] = await listMembers(ctx.db, q.keyword, q.memberId);
  const filter: BillFilter = { members, asset: q.asset, type: q.type, start, end };
  const empty = Array.isArray(members) && members.length === 0;
  let counted: { n: number; sums: BillSums[] | null };
  if (empty) counted = { n: 0, sums: [] };
  else if (members === undefined) {
    const sums = await statBills(ctx.db, filter);
    counted = { n: sums.reduce((n, s) => n + s.n, 0), sums };
  } else counted = await countMemberBills(ctx.db, filter, cap);
  const totalCapped = counted.sums === null;
  const { rows, next, prev } =
    empty || counted.n === 0
      ? { rows: [], next: null, prev: null }
      : await findBills(ctx.db, filter, { offset, limit: size, order: q.order ?? 'desc', keyset });
  return {
    list: rows.map((r) => {
      const asset = r.asset as Asset;
      return {
        id: Number(r.id),
        ...memberColumnsOf(r),
        asset,
        type: r.type as BillType,
        change: formatAsset(r.change, asset),
        availableAfter: formatAsset(r.available_after, asset),
        frozenChange: formatAsset(r.frozen_change, asset),
        frozenAfter: formatAsset(r.frozen_after, asset),
        refKind: r.ref_kind,
        refId: r.ref_id == null ? null : Number(r.ref_id),
        remark: r.remark,
        createdAt: Number(r.created_at),
      };
    }),
    total: totalCapped ? cap : counted.n,
    totalCapped,
    page,
    size,
    next,
    prev,
    sum:
      counted.sums === null
        ? null
        : {
            byAsset: counted.sums.map((s) => ({
              asset: s.asset as Asset,
              change: formatAsset(s.change, s.asset as Asset),
              frozenChange: formatAsset(s.frozen_change, s.asset as Asset),
            })),
          },
  };
}
