/**
 * 质押记录: members' pledges with the terms they started with, filters in the URL (member keyword,
 * mode, status, start range), the totals of amount and released over every matching record, the
 * export of all of them, the last settlement run (a warning when it failed or did not finish), and each
 * record's daily releases in a drawer.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { ratePercent } from '../../../domain/economy';
import { PledgeStatus } from '../../../domain/pledge';
import Can from '../../components/Can';
import { actionsColumn, memberColumn, moneyColumn, statusColumn, timeColumn } from '../../components/columns';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import EnumSelect from '../../components/EnumSelect';
import { ExportButton } from '../../components/ExportButton';
import { ListPage } from '../../components/ListPage';
import { useCan } from '../../components/useCan';
import { useListParams } from '../../components/useListParams';
import type { ListPledgesApiArg } from '../../services/generated/pledge';
import { useListPledgeModesQuery, useListPledgesQuery } from '../../services/pledge';
import SettlementRun from '../../components/SettlementRun';
import PledgeReleaseDrawer, { type Pledge } from './PledgeReleaseDrawer';

// memberId: one member's records exactly (a link from a bill); no field of its own.
const FILTERS = { keyword: '', memberId: '', modeId: '', status: '', start: '', end: '' };
const NUMERIC = ['memberId', 'modeId', 'status'] as const;

export default function PledgeListPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListPledgesQuery(params.queryArgs as ListPledgesApiArg);
  // The mode filter's options; only for managers who may read the modes.
  const canModes = useCan('pledgeMode:view');
  const { data: modes } = useListPledgeModesQuery(undefined, { skip: !canModes });
  const [open, setOpen] = useState<Pledge | null>(null);
  const chosenMode = params.filters.modeId;
  const modeOptions = useMemo(() => {
    const options = (modes?.list ?? []).map((m) => ({
      value: m.id,
      label: m.status === 1 ? m.name : `${m.name}（停用）`,
    }));
    // A mode id from the URL that is not (yet) among the options still shows as chosen.
    if (chosenMode && !options.some((o) => String(o.value) === chosenMode)) {
      options.push({ value: Number(chosenMode), label: `模式 #${chosenMode}` });
    }
    return options;
  }, [modes, chosenMode]);

  const columns = useMemo<Column<Pledge>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80, sortable: true },
      memberColumn({ width: 140 }),
      { field: 'modeName', headerName: '质押模式', width: 120 },
      moneyColumn('amount', '质押数量', 'LZ', { width: 130 }),
      {
        field: 'rate',
        headerName: '日收益率',
        width: 90,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (value: string) => ratePercent(value),
      },
      { field: 'days', headerName: '天数', width: 70, align: 'right', headerAlign: 'right' },
      moneyColumn('dailyYield', '每日收益', 'LZ', { width: 120 }),
      moneyColumn('released', '已释放', 'LZ', { width: 120 }),
      moneyColumn('totalYield', '总收益', 'LZ', { width: 120 }),
      { field: 'startDate', headerName: '开始日期', width: 110 },
      { field: 'endDate', headerName: '到期日期', width: 110 },
      statusColumn('status', '状态', PledgeStatus.map),
      timeColumn('createdAt', '质押时间'),
      actionsColumn<Pledge>(
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
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="质押记录"
        totals={(sum) => [
          { label: '合计质押', amount: sum.amount, asset: 'LZ' },
          { label: '合计已释放', amount: sum.released, asset: 'LZ' },
        ]}
        toolbar={
          <>
            <SettlementRun run={data?.lastRun} side="pledge" />
            <Can code="pledge:export">
              <ExportButton path="/v1/admin/pledge/export" params={params.queryArgs} formats={['xlsx', 'csv']} />
            </Can>
          </>
        }
      >
        <TextField label="会员" placeholder="UID、手机号或昵称" size="small" {...params.field('keyword')} />
        <EnumSelect filter label="质押模式" sx={{ width: 150 }} options={modeOptions} {...params.field('modeId')} />
        <EnumSelect filter label="状态" options={PledgeStatus} {...params.field('status')} />
        <DateRangeFilter params={params} />
      </ListPage>
      <PledgeReleaseDrawer pledge={open} onClose={() => setOpen(null)} />
    </>
  );
}
