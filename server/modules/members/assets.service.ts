/** The asset query (资产查询, /query/list): each member's account of each asset, with per-asset sums. */
import { AssetDecimals, Assets, type Asset } from '../../../domain/assets';
import { formatAsset, moneyReasonText, parseMinor } from '../../../domain/money';
import type { Ctx } from '../../context';
import type { Static } from '../../http/schemas';
import { pageOf } from '../../db/keyset';
import { toMinor } from '../../db/sql';
import { badInput } from '../../errors';
import { ledgerTotals } from '../ledger/ledger.service';
import { findAccounts, type AccountSums } from './assets.repository';
import { countMembersByKey } from './counts.repository';
import type { QueryListQuery } from './assets.schema';
import { memberColumnsOf } from './members.query';

/** The list's query as its schema declares it. */
export type AssetListInput = Static<typeof QueryListQuery>;

/** The most places any asset has: a minimum is read at this precision, then rounded up per asset. */
const MAX_PLACES = Math.max(...Assets.map((a) => AssetDecimals[a]));

export async function listAssets(ctx: Ctx, q: AssetListInput) {
  const { page, size, offset } = pageOf(q);
  const assets: readonly Asset[] = q.asset ? [q.asset] : Assets;
  let minTotal: Record<string, bigint> | undefined;
  if (q.minTotal?.trim()) {
    const r = parseMinor(q.minTotal, MAX_PLACES, { allowZero: true });
    if (!r.ok) throw badInput(`最低总额${moneyReasonText[r.reason]}`);
    minTotal = {};
    for (const a of assets) {
      // ceil(value / 10^(MAX_PLACES − decimals)): "at least 0.001" of a 2-place asset is at least 0.01.
      const div = 10n ** BigInt(MAX_PLACES - AssetDecimals[a]);
      minTotal[a] = (r.value + div - 1n) / div;
    }
  }
  const keyword = q.keyword?.trim() || undefined;
  // Every account of the assets shown: each member has one account per asset (opened with the member),
  // and what they hold is what the bills moved (the ledger invariant), so nothing needs summing here.
  let everything: AccountSums[] | undefined;
  if (!keyword && !minTotal) {
    const [members, totals] = await Promise.all([countMembersByKey(ctx.db, {}), ledgerTotals(ctx.db)]);
    const byAsset = new Map(totals.map((t) => [t.asset, t]));
    everything = assets.map((asset) => ({
      asset,
      n: members,
      available: byAsset.get(asset)?.available ?? '0',
      frozen: byAsset.get(asset)?.frozen ?? '0',
    }));
  }
  const { rows, sums, total } = await findAccounts(
    ctx.db,
    { keyword, asset: q.asset, minTotal },
    { offset, limit: size, sort: q.sort ?? 'memberId', order: q.order ?? 'desc' },
    everything,
  );
  const byAsset = new Map(sums.map((s) => [s.asset, s]));
  return {
    list: rows.map((r) => {
      const asset = r.asset as Asset;
      const available = toMinor(r.available);
      const frozen = toMinor(r.frozen);
      return {
        ...memberColumnsOf(r),
        asset,
        available: formatAsset(available, asset),
        frozen: formatAsset(frozen, asset),
        total: formatAsset(available + frozen, asset),
        updatedAt: Number(r.updated_at),
      };
    }),
    total,
    page,
    size,
    sum: assets.map((asset) => {
      const s = byAsset.get(asset);
      const available = toMinor(s?.available ?? '0');
      const frozen = toMinor(s?.frozen ?? '0');
      return {
        asset,
        available: formatAsset(available, asset),
        frozen: formatAsset(frozen, asset),
        total: formatAsset(available + frozen, asset),
      };
    }),
  };
}
