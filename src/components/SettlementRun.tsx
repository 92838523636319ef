/**
 * The last run of the daily settlement job, as the pledge and seed lists answer it (`lastRun`): its day,
 * a status chip, when it finished and what it paid on the page's side (pledges or seeds); a failed or
 * unfinished run is a warning on the page, not only in a log.
 */
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SettlementStatus } from '../../domain/settlement';
import type { ListPledgesApiResponse } from '../services/generated/pledge';
import { formatTimeValue } from './columns';
import { formatMoneyText } from './MoneyText';

export type LastRun = ListPledgesApiResponse['lastRun'];

/** What the run paid, in the words of the page that shows it. */
const paid = {
  pledge: (run: NonNullable<LastRun>) =>
    `结算质押 ${run.pledges} 笔，收益 ${formatMoneyText(run.pledgeYield, 'LZ', { showAsset: true })}，赎回本金 ` +
    formatMoneyText(run.pledgePrincipal, 'LZ', { showAsset: true }),
  seed: (run: NonNullable<LastRun>) =>
    `释放种子 ${run.seeds} 个，能量 ${formatMoneyText(run.seedEnergy, 'ENERGY', { showAsset: true })}`,
};

export default function SettlementRun({ run, side }: { run: LastRun | undefined; side: keyof typeof paid }) {
  if (run === undefined) return null;
  if (run === null) {
    return (
      <Typography variant="body2" color="text.secondary" role="note" aria-label="最近结算">
        最近结算：暂无结算记录
      </Typography>
    );
  }
  const done = run.status === SettlementStatus.is.done;
  const failed = run.status === SettlementStatus.is.failed;
  return (
    <Stack spacing={1} role="note" aria-label="最近结算">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2">最近结算：{run.day}</Typography>
        <Chip size="small" label={run.statusText} color={done ? 'success' : failed ? 'error' : 'warning'} />
        <Typography variant="body2" color="text.secondary">
          {paid[side](run)}
          {run.finishedAt ? `，完成于 ${formatTimeValue(run.finishedAt)}` : ''}
        </Typography>
      </Stack>
      {done ? null : (
        <Alert severity={failed ? 'error' : 'warning'}>
          {failed
            ? `${run.day} 的结算失败${run.error ? `：${run.error}` : ''}，系统将在下次运行时重试。`
            : `${run.day} 的结算${run.statusText}，开始于 ${formatTimeValue(run.startedAt)}。`}
        </Alert>
      )}
    </Stack>
  );
}
