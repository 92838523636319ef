/** 释放明细: one pledge's daily releases (`pledge/release/list?pledgeId`), newest day first, paged. */
import { useState } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ratePercent } from '../../../domain/economy';
import { formatTimeValue } from '../../components/columns';
import SideDrawer from '../../components/SideDrawer';
import { MoneyText } from '../../components/MoneyText';
import type { ListPledgesApiResponse } from '../../services/generated/pledge';
import { useListPledgeReleasesQuery } from '../../services/pledge';

export type Pledge = ListPledgesApiResponse['list'][number];

const SIZE = 20;

function Releases({ pledge }: { pledge: Pledge }) {
  const [page, setPage] = useState(0);
  const { data, isFetching } = useListPledgeReleasesQuery({ pledgeId: pledge.id, page: page + 1, size: SIZE });
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
            <TableCell align="right">收益</TableCell>
            <TableCell align="right">赎回本金</TableCell>
            <TableCell>到账时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.day}</TableCell>
              <TableCell align="right">
                <MoneyText value={r.amount} asset="LZ" />
              </TableCell>
              <TableCell align="right">
                {r.principal === '0' ? '-' : <MoneyText value={r.principal} asset="LZ" />}
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
        合计收益：{data?.sum.amount ?? '0'} LZ，赎回本金：{data?.sum.principal ?? '0'} LZ
      </Typography>
    </>
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
