/**
 * 种子记录: members' seeds with their source, energy terms and progress (released / total as a bar),
 * filters in the URL, the totals of every matching seed, the last settlement run (a warning when it
 * failed or did not finish), and each seed's daily releases in a drawer.
 */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Column } from '../../components/table/columnTypes';
import { parseAsset } from '../../../domain/money';
import { SeedSource, SeedStatus } from '../../../domain/seeds';
import { actionsColumn, memberColumn, moneyColumn, statusColumn, timeColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import EnumSelect from '../../components/EnumSelect';
import { ListPage } from '../../components/ListPage';
import { formatMoneyText } from '../../components/MoneyText';
import { useListParams } from '../../components/useListParams';
import type { ListSeedsApiArg } from '../../services/generated/seed';
import { useListSeedsQuery } from '../../services/seeds';
import SettlementRun from '../../components/SettlementRun';
import SeedReleaseDrawer, { type Seed } from './SeedReleaseDrawer';

const FILTERS = { keyword: '', source: '', status: '', start: '', end: '' };
const NUMERIC = ['source', 'status'] as const;

/** Released / total in whole percent (rounded down), from the decimal strings: no float touches money. */
export function progressOf(released: string, total: string): number {
  const r = parseAsset(released, 'ENERGY', { allowZero: true });
  const t = parseAsset(total, 'ENERGY');
  if (!r.ok || !t.ok) return 0;
  return Number((r.value * 100n) / t.value);
}

function Progress({ row }: { row: Seed }) {
  const pct = progressOf(row.released, row.totalEnergy);
  return (
    <Box sx={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
      <LinearProgress
        variant="determinate"
        value={pct}
        color={pct >= 100 ? 'success' : 'primary'}
        aria-label={`释放进度 ${pct}%`}
      />
      <Typography variant="caption" color="text.secondary">
        {formatMoneyText(row.released, 'ENERGY')} / {formatMoneyText(row.totalEnergy, 'ENERGY')}（{pct}%）
      </Typography>
    </Box>
  );
}

export default function SeedListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListSeedsQuery(params.queryArgs as ListSeedsApiArg);
  const [open, setOpen] = useState<Seed | null>(null);

  const columns = useMemo<Column<Seed>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      memberColumn({ width: 140 }),
      { field: 'name', headerName: '种子名称', width: 120 },
      statusColumn('source', '来源', SeedSource.map, { width: 100 }),
      moneyColumn('totalEnergy', '总能量', 'ENERGY', { width: 120 }),
      moneyColumn('dailyEnergy', '每日释放', 'ENERGY', { width: 110 }),
      {
        field: 'released',
        headerName: '释放进度',
        width: 190,
        renderCell: ({ row }) => <Progress row={row} />,
      },
      { field: 'days', headerName: '周期（天）', width: 90 },
      { field: 'startDay', headerName: '开始日期', width: 110 },
      { field: 'endDay', headerName: '成熟日期', width: 110 },
      statusColumn('status', '状态', SeedStatus.map),
      timeColumn('createdAt', '获得时间'),
      actionsColumn<Seed>(
        (row) => (
          <Button size="small" onClick={() => setOpen(row)}>
            释放明细
          </Button>
        ),
        { width: 110 },
      ),
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      <SettlementRun run={data?.lastRun} side="seed" />
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="种子列表"
        totals={(sum) => [
          { label: '合计总能量', amount: sum.totalEnergy, asset: 'ENERGY' },
          { label: '合计已释放', amount: sum.released, asset: 'ENERGY' },
        ]}
      >
        <TextField label="会员" placeholder="UID、手机号或昵称" size="small" {...params.field('keyword')} />
        <EnumSelect filter label="来源" options={SeedSource} {...params.field('source')} />
        <EnumSelect filter label="状态" options={SeedStatus} {...params.field('status')} />
        <DateRangeFilter params={params} />
      </ListPage>
      <SeedReleaseDrawer seed={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
