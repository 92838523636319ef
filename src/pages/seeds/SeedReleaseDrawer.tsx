/** 释放明细: one seed's daily releases (`seed/release/list?seedId`), newest day first, paged. */
import { useState } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatTimeValue } from '../../components/columns';
import SideDrawer from '../../components/SideDrawer';
import { MoneyText } from '../../components/MoneyText';
import type { ListSeedsApiResponse } from '../../services/generated/seed';
import { useListSeedReleasesQuery } from '../../services/seeds';

export type Seed = ListSeedsApiResponse['list'][number];

const SIZE = 20;

function Releases({ seed }: { seed: Seed }) {
  const [page, setPage] = useState(0);
  const { data, isFetching } = useListSeedReleasesQuery({ seedId: seed.id, page: page + 1, size: SIZE });
  const rows = data?.list ?? [];
  if (!rows.length) {
    return <Typography variant="body2">{isFetching ? '加载中...' : '暂无释放记录'}</Typography>;
  }
  return (
    <>
      <Table size="small" aria-label="释放明细">
        <TableHead>
          <TableRow>
            <TableCell>释放日期</TableCell>
            <TableCell align="right">释放能量</TableCell>
            <TableCell>到账时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.day}</TableCell>
              <TableCell align="right">
                <MoneyText value={r.amount} asset="ENERGY" />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimeValue(r.createdAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={SIZE}
        rowsPerPageOptions={[SIZE]}
        onPageChange={(_e, p) => setPage(p)}
        labelDisplayedRows={({ from, to, count }) => `${from}-${to}，共 ${count} 条`}
      />
      <Typography variant="body2" color="text.secondary">
        合计释放：{data?.sum.amount ?? '0'} ENERGY
      </Typography>
    </>
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
