/**
 * The member detail drawer: profile, balances per asset, the latest bills (`bill` with memberId,
 * bill:view) and the payment methods (`payment/list` with memberId, payment:view).
 */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Assets } from '../../../domain/assets';
import SideDrawer from '../../components/SideDrawer';
import { BillTypeLabels, type BillType } from '../../../domain/bills';
import { MemberLevel, MemberStatus, RealNameStatus } from '../../../domain/members';
import { PaymentStatus, PaymentType } from '../../../domain/payments';
import { formatTimeValue } from '../../components/columns';
import { MoneyText } from '../../components/MoneyText';
import { StatusChip } from '../../components/StatusChip';
import { usePermissions } from '../../components/useCan';
import { useListBillsQuery } from '../../services/bills';
import { useListPaymentMethodsQuery } from '../../services/payments';
import type { MemberRow } from './memberTypes';

export const LATEST_BILLS = 10;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack direction="row" spacing={1} sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" sx={{ width: 80, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', minWidth: 0 }}>{children}</Box>
    </Stack>
  );
}

function Bills({ memberId }: { memberId: number }) {
  const { data, isFetching } = useListBillsQuery({ memberId, size: LATEST_BILLS, sort: 'id', order: 'desc' });
  const rows = data?.list ?? [];
  if (!rows.length) return <Typography variant="body2">{isFetching ? '加载中...' : '暂无数据'}</Typography>;
  return (
    <Table size="small" aria-label="最近账单">
      <TableHead>
        <TableRow>
          <TableCell>时间</TableCell>
          <TableCell>类型</TableCell>
          <TableCell align="right">变动</TableCell>
          <TableCell align="right">变动后可用</TableCell>
          <TableCell>备注</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((b) => (
          <TableRow key={b.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimeValue(b.createdAt)}</TableCell>
            <TableCell>{BillTypeLabels[b.type as BillType] ?? b.type}</TableCell>
            <TableCell align="right">
              <MoneyText value={b.change} asset={b.asset} signed showAsset />
            </TableCell>
            <TableCell align="right">
              <MoneyText value={b.availableAfter} asset={b.asset} />
            </TableCell>
            <TableCell>{b.remark}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function PaymentMethods({ memberId }: { memberId: number }) {
  const { data, isFetching } = useListPaymentMethodsQuery({ memberId, size: 20 });
  const rows = data?.list ?? [];
  if (!rows.length) return <Typography variant="body2">{isFetching ? '加载中...' : '暂无数据'}</Typography>;
  return (
    <Table size="small" aria-label="收款方式">
      <TableHead>
        <TableRow>
          <TableCell>类型</TableCell>
          <TableCell>姓名</TableCell>
          <TableCell>账号</TableCell>
          <TableCell>状态</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((p) => (
          <TableRow key={p.id}>
            <TableCell>{PaymentType.label(p.type)}</TableCell>
            <TableCell>{p.holder}</TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>
              {p.account}
              {p.type === 1 && p.bank ? `（${p.bank}${p.branch ? ` ${p.branch}` : ''}）` : ''}
            </TableCell>
            <TableCell>
              <StatusChip value={p.status} map={PaymentStatus.map} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default function MemberDrawer({ member, onClose }: { member: MemberRow | null; onClose: () => void }) {
  const { can } = usePermissions();
  return (
    <SideDrawer open={member !== null} onClose={onClose} label="会员详情" title="会员详情" width={560}>
      {member ? (
        <Stack spacing={2}>
          <Stack spacing={0.5}>
            <Field label="UID">{member.uid}</Field>
            <Field label="手机号">{member.phone}</Field>
            <Field label="昵称">{member.nickname}</Field>
            <Field label="邀请人">{member.inviterUid ?? '-'}</Field>
            <Field label="专区">{member.zoneName ?? '-'}</Field>
            <Field label="等级">
              <StatusChip value={member.level} map={MemberLevel.map} />
            </Field>
            <Field label="状态">
              <StatusChip value={member.status} map={MemberStatus.map} />
            </Field>
            <Field label="实名">
              <StatusChip value={member.realNameStatus} map={RealNameStatus.map} />
            </Field>
            <Field label="注册时间">{formatTimeValue(member.createdAt)}</Field>
            <Field label="最后登录">{formatTimeValue(member.lastLoginAt) || '-'}</Field>
          </Stack>
          <Divider />
          <Section title="资产">
            <Table size="small" aria-label="资产">
              <TableHead>
                <TableRow>
                  <TableCell>币种</TableCell>
                  <TableCell align="right">可用</TableCell>
                  <TableCell align="right">冻结</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {Assets.map((a) => (
                  <TableRow key={a}>
                    <TableCell>{a}</TableCell>
                    <TableCell align="right">
                      <MoneyText value={member.balances[a].available} asset={a} />
                    </TableCell>
                    <TableCell align="right">
                      <MoneyText value={member.balances[a].frozen} asset={a} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Section>
          {can('bill:view') ? (
            <Section title={`最近${LATEST_BILLS}条账单`}>
              <Bills memberId={member.id} />
            </Section>
          ) : null}
          {can('payment:view') ? (
            <Section title="收款方式">
              <PaymentMethods memberId={member.id} />
            </Section>
          ) : null}
        </Stack>
      ) : null}
    </SideDrawer>
  );
}
