/** 释放明细: one seed's daily releases (`seed/release/list?seedId`), newest day first, paged. */
import { useState } from 'react';
import Typography from '@mui/material/Typography';
import SideDrawer from '../../components/SideDrawer';
import ReleaseTable, { RELEASES_PAGE_SIZE } from '../../components/ReleaseTable';
import { MoneyText } from '../../components/MoneyText';
import type { ListSeedsApiResponse } from '../../services/generated/seed';
import { useListSeedReleasesQuery } from '../../services/seeds';

export type Seed = ListSeedsApiResponse['list'][number];

function Releases({ seed }: { seed: Seed }) {
  const [page, setPage] = useState(0);
  const { data, isFetching } = useListSeedReleasesQuery({ seedId: seed.id, page: page + 1, size: RELEASES_PAGE_SIZE });
  return (
    <ReleaseTable
      rows={data?.list}
      total={data?.total ?? 0}
      isFetching={isFetching}
      page={page}
      onPage={setPage}
      columns={[{ label: '释放能量', cell: (r) => <MoneyText value={r.amount} asset="ENERGY" /> }]}
      summary={<>合计释放：{data?.sum.amount ?? '0'} ENERGY</>}
    />
  );
}

export default function SeedReleaseDrawer({ seed, onClose }: { seed: Seed | null; onClose: () => void }) {
  return (
    <SideDrawer
      open={seed !== null}
      onClose={onClose}
      label="释放明细"
      width={480}
      title={<>释放明细{seed ? ` · ${seed.name} #${seed.id}` : ''}</>}
    >
      {seed ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            会员 {seed.uid}，总能量 {seed.totalEnergy}，已释放 {seed.released}，周期 {seed.days} 天（
            {seed.startDay} 起）
          </Typography>
          <Releases key={seed.id} seed={seed} />
        </>
      ) : null}
    </SideDrawer>
  );
}
