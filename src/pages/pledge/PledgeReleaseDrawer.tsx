/** 释放明细: one pledge's daily releases (`pledge/release/list?pledgeId`), newest day first, paged. */
import { useState } from 'react';
import Typography from '@mui/material/Typography';
import { ratePercent } from '../../../domain/economy';
import SideDrawer from '../../components/SideDrawer';
import ReleaseTable, { RELEASES_PAGE_SIZE } from '../../components/ReleaseTable';
import { MoneyText } from '../../components/MoneyText';
import type { ListPledgesApiResponse } from '../../services/generated/pledge';
import { useListPledgeReleasesQuery } from '../../services/pledge';

export type Pledge = ListPledgesApiResponse['list'][number];

function Releases({ pledge }: { pledge: Pledge }) {
  const [page, setPage] = useState(0);
  const { data, isFetching } = useListPledgeReleasesQuery({
    pledgeId: pledge.id,
    page: page + 1,
    size: RELEASES_PAGE_SIZE,
  });
  return (
    <ReleaseTable
      rows={data?.list}
      total={data?.total ?? 0}
      isFetching={isFetching}
      page={page}
      onPage={setPage}
      columns={[
        { label: '收益', cell: (r) => <MoneyText value={r.amount} asset="LZ" /> },
        {
          label: '赎回本金',
          cell: (r) => (r.principal === '0' ? '-' : <MoneyText value={r.principal} asset="LZ" />),
        },
      ]}
      summary={
        <>
          合计收益：{data?.sum.amount ?? '0'} LZ，赎回本金：{data?.sum.principal ?? '0'} LZ
        </>
      }
    />
  );
}

export default function PledgeReleaseDrawer({ pledge, onClose }: { pledge: Pledge | null; onClose: () => void }) {
  return (
    <SideDrawer
      open={pledge !== null}
      onClose={onClose}
      label="释放明细"
      width={520}
      title={<>释放明细{pledge ? ` · 质押 #${pledge.id}` : ''}</>}
    >
      {pledge ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            会员 {pledge.uid}，{pledge.modeName}，质押 {pledge.amount} LZ，日收益率 {ratePercent(pledge.rate)}，
            {pledge.days} 天（{pledge.startDate} 至 {pledge.endDate}），已释放 {pledge.released} / {pledge.totalYield}{' '}
            LZ
          </Typography>
          <Releases key={pledge.id} pledge={pledge} />
        </>
      ) : null}
    </SideDrawer>
  );
}
