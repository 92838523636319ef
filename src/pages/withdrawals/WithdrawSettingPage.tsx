/**
 * 提现设置: the rules of each type (tabs 提现 / 提取, the tab in the URL) and its payout wallet
 * (WithdrawRuleForm, WithdrawWalletForm). Every field is checked the way the server checks it before
 * anything is sent; the server's refusal shows above the form. Without withdrawSetting:update the
 * forms are read-only.
 */
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { WithdrawType, type WithdrawType as WType } from '../../../domain/withdrawals';
import { errorMessage } from '../../components/FormDialog';
import { useCan } from '../../components/useCan';
import { useGetWithdrawSettingQuery } from '../../services/withdrawals';
import { WithdrawRuleForm } from './WithdrawRuleForm';
import { WithdrawWalletForm } from './WithdrawWalletForm';

function TypeSettings({ type }: { type: WType }) {
  const { data, error, isLoading } = useGetWithdrawSettingQuery({ type });
  const editable = useCan('withdrawSetting:update');
  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">加载中...</Typography>;
  // Keyed by the saved time: a save (or another manager's, on refetch) refills the forms.
  return (
    <Stack spacing={2}>
      <WithdrawRuleForm key={`s-${data.updatedAt ?? 0}`} setting={data} editable={editable} />
      <WithdrawWalletForm key={`a-${data.account.updatedAt ?? 0}`} setting={data} editable={editable} />
    </Stack>
  );
}

export default function WithdrawSettingPage() {
  const [search, setSearch] = useSearchParams();
  const type: WType = search.get('type') === '2' ? 2 : 1;
  return (
    <Stack spacing={2}>
      <Tabs
        value={type}
        onChange={(_e, next: WType) =>
          setSearch((cur) => {
            const p = new URLSearchParams(cur);
            if (next === 1) p.delete('type');
            else p.set('type', String(next));
            return p;
          })
        }
        aria-label="设置类型"
      >
        {WithdrawType.values.map((v) => (
          <Tab key={v} value={v} label={WithdrawType.label(v)} />
        ))}
      </Tabs>
      <TypeSettings key={type} type={type} />
    </Stack>
  );
}
