/**
 * 账单 (billLayout) and 能量变动 (energyLayout/changeLayout, `energy`): the ledger's bills, newest
 * first, over tens of millions of rows. Totals and per-asset sums are exact, except for one member's
 * bills past 10,000 (`totalCapped`): the page then says "10,000+ 条", keeps paging with 下一页 (the
 * pager does not know the last page) and asks to narrow the filters for the sum. Pages past the first
 * 10,000 rows are reached by cursor (useListParams), as fast as the first.
 */
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { Assets } from '../../../domain/assets';
import { BillTypeLabels, billRefPath, billRefText, type BillType } from '../../../domain/bills';
import { moneyColumn, timeColumn, memberColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { ListPage } from '../../components/ListPage';
import { formatMoneyText } from '../../components/MoneyText';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListBillsApiArg, ListBillsApiResponse, ListEnergyChangesApiArg } from '../../services/generated/bill';
import { useGetBillTypesQuery, useListBillsQuery, useListEnergyChangesQuery } from '../../services/bills';

export type Bill = ListBillsApiResponse['list'][number];
type BillPage = ListBillsApiResponse;

const FILTERS = { keyword: '', memberId: '', asset: '', type: '', start: '', end: '' };
const NUMERIC = ['memberId', 'type'] as const;

/** "共 10,000+ 条（…）" or "共 123 条": never a capped number shown as exact. */
export function countText(page: Pick<BillPage, 'total' | 'totalCapped'>): string {
  const n = page.total.toLocaleString('en-US');
  return page.totalCapped
    ? `共 ${n}+ 条（超过 ${n} 条时不再计数，可继续翻页；缩小筛选范围可看到总数与合计）`
    : `共 ${n} 条`;
}

/** The line under the table: sums per asset, or why there is none. */
export function sumText(page: Pick<BillPage, 'total' | 'totalCapped' | 'sum'>): string {
  if (!page.sum) return `合计：结果超过 ${page.total.toLocaleString('en-US')} 条，缩小筛选范围后显示合计`;
  if (page.sum.byAsset.length === 0) return '合计变动：0';
  return `合计变动：${page.sum.byAsset
    .map((s) => formatMoneyText(s.change, s.asset, { signed: true, showAsset: true }))
    .join('，')}`;
}

export interface BillListPageProps {
  /** The energy-change page: ENERGY bills only, through POST change/list. */
  energy?: boolean;
}

export default function BillListPage({ energy = false }: BillListPageProps) {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const bills = useListBillsQuery(params.queryArgs as ListBillsApiArg, { skip: energy });
  // The energy page has no asset filter (it is ENERGY): an `asset` left in its URL is not sent.
  const { asset: _asset, ...energyArgs } = params.queryArgs;
  const changes = useListEnergyChangesQuery({ body: energyArgs as ListEnergyChangesApiArg['body'] }, { skip: !energy });
  const { data, isFetching, refetch } = energy ? changes : bills;
  const { data: types } = useGetBillTypesQuery();
  const typeOptions = types ?? Object.entries(BillTypeLabels).map(([type, label]) => ({ type: Number(type), label }));

  const columns = useMemo<Column<Bill>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 90 },
      memberColumn(),
      ...(energy ? [] : [{ field: 'asset', headerName: '资产', width: 80 } as Column<Bill>]),
      {
        field: 'type',
        headerName: '类型',
        width: 100,
        valueFormatter: (value: unknown) => BillTypeLabels[value as BillType] ?? String(value),
      },
      moneyColumn<Bill>('change', energy ? '能量变动' : '变动金额', (row) => row.asset, { signed: true, width: 140 }),
      moneyColumn<Bill>('availableAfter', '变动后可用', (row) => row.asset, { width: 140 }),
      moneyColumn<Bill>('frozenChange', '冻结变动', (row) => row.asset, { signed: true, width: 120 }),
      moneyColumn<Bill>('frozenAfter', '变动后冻结', (row) => row.asset, { width: 130 }),
      {
        field: 'refKind',
        headerName: '关联',
        width: 110,
        // A link to the record on its page (when the manager may open it: the page says 无权限 otherwise).
        renderCell: ({ row }) => {
          const text = billRefText(row.refKind, row.refId ?? null);
          const to = billRefPath(row);
          return to ? (
            <Link component={RouterLink} to={`/layout/${to}`}>
              {text}
            </Link>
          ) : (
            text
          );
        },
      },
      { field: 'remark', headerName: '备注', flex: 1, minWidth: 180 },
      timeColumn('createdAt', '时间'),
    ],
    [energy],
  );

  return (
    <Stack spacing={1}>
      <ListPage<Bill, BillPage['sum'], typeof FILTERS>
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label={energy ? '能量变动' : '账单列表'}
      >
        <TextField label="会员" placeholder="UID或手机号" size="small" {...params.field('keyword')} />
        {energy ? null : <EnumSelect filter label="资产" {...params.field('asset')} options={Assets} />}
        <EnumSelect
          filter
          label="类型"
          options={typeOptions.map((t) => ({ value: t.type, label: t.label }))}
          sx={{ width: 140 }}
          {...params.field('type')}
        />
        <DateRangeFilter params={params} />
      </ListPage>
      {data ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {countText(data)}；{sumText(data)}
        </Typography>
      ) : null}
    </Stack>
  );
}
