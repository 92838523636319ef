/**
 * Bills and energy changes (DOMAIN.md "Bills and energy"): read-only lists over the ledger's bills.
 *
 * At platform scale (10,000,000 bills) an exact COUNT and SUM over a wide filter cost seconds, so the
 * count stops at BILL_COUNT_CAP (the answer says `totalCapped`), paging reaches the first CAP rows
 * (narrow the filters for older ones), and the per-asset sum is given when the count is exact (it is
 * taken over those same ≤ CAP rows), else null. See docs/decisions.md "Bills".
 */
import type { Asset } from '../../../domain/assets';
import { billTypeValues, BillTypeLabels, type BillType } from '../../../domain/bills';
import { formatAsset } from '../../../domain/money';
import type { Ctx } from '../../context';
import { parseRange } from '../../range';
import { countAndSumBills, findBills, type BillFilter } from './bills.repository';

export const BILL_COUNT_CAP = 10_000;

export function billTypes() {
  return billTypeValues.map((type) => ({ type, label: BillTypeLabels[type] }));
}

export interface BillListInput {
  page?: number;
  size?: number;
  order?: 'asc' | 'desc';
  keyword?: string;
  memberId?: number;
  asset?: Asset;
  type?: number;
  start?: string;
  end?: string;
}

export async function listBills(ctx: Ctx, q: BillListInput, cap = BILL_COUNT_CAP) {
  const page = q.page ?? 1;
  const size = q.size ?? 20;
  const { start, end } = parseRange(q);
  const filter: BillFilter = {
    keyword: q.keyword?.trim() || undefined,
    memberId: q.memberId,
    asset: q.asset,
    type: q.type,
    start,
    end,
  };
  const offset = (page - 1) * size;
  const [rows, sums] = await Promise.all([
    // Past the cap there is nothing to page to: no deep OFFSET ever reaches the database.
    offset >= cap
      ? Promise.resolve([])
      : findBills(ctx.db, filter, { offset, limit: Math.min(size, cap - offset), order: q.order ?? 'desc' }),
    countAndSumBills(ctx.db, filter, cap),
  ]);
  const counted = sums.reduce((n, s) => n + Number(s.n), 0);
  const totalCapped = counted > cap;
  return {
    list: rows.map((r) => {
      const asset = r.asset as Asset;
      return {
        id: Number(r.id),
        memberId: Number(r.member_id),
        uid: r.uid,
        phone: r.phone,
        nickname: r.nickname,
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
    total: totalCapped ? cap : counted,
    totalCapped,
    page,
    size,
    sum: totalCapped
      ? null
      : {
          byAsset: sums.map((s) => ({
            asset: s.asset as Asset,
            change: formatAsset(s.change, s.asset as Asset),
            frozenChange: formatAsset(s.frozen_change, s.asset as Asset),
          })),
        },
  };
}
