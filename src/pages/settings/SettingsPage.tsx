/**
 * 系统设置: the platform's settings in groups (domain/platformSettings.ts names every field), each field
 * checked as the server checks it. 保存 sends only the groups that changed; the server writes one op-log
 * row with every changed field as 旧 → 新. The LZ price's last 30 days are drawn beside it (the chart
 * chunk loads with this page only).
 */
import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  isDownloadUrl,
  SettingGroups,
  SettingLabels as L,
  SettingLimits,
  SettingMessages,
} from '../../../domain/platformSettings';
import { formatTime } from '../../../domain/time';
import { errorMessage } from '../../components/FormDialog';
import { MoneyField, validateMoney } from '../../components/MoneyField';
import { useCan } from '../../components/useCan';
import { useForm } from '../../components/useForm';
import type { GetSettingsApiResponse, SaveSettingsApiArg } from '../../services/generated/setting';
import { useGetPriceQuery, useGetSettingsQuery, useSaveSettingsMutation } from '../../services/settings';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';

const PriceChart = lazy(() => import('./PriceChart'));

type S = GetSettingsApiResponse;
type Body = SaveSettingsApiArg['body'];

const textsOf = (s: S) => ({
  name: s.platform.name,
  wechat: s.service.wechat,
  phone: s.service.phone,
  inviteReward: s.register.inviteReward,
  lz: s.price.lz === '0' ? '' : s.price.lz,
  version: s.app.version,
  downloadUrl: s.app.downloadUrl,
  message: s.maintenance.message,
  payTimeoutMinutes: String(s.match.payTimeoutMinutes),
  autoCompleteDays: String(s.mall.autoCompleteDays),
});
type Texts = ReturnType<typeof textsOf>;

const intRule = (min: number, max: number) => (v: string) =>
  /^\d+$/.test(v.trim()) && +v >= min && +v <= max ? null : `请输入 ${min}–${max} 的整数`;

/** The groups whose fields differ from what was loaded, each whole. */
export function changedGroups(s: S, t: Texts, flags: { open: boolean; on: boolean }): Body {
  const next: Required<Omit<Body, 'updatedAt'>> = {
    platform: { name: t.name.trim() },
    service: { wechat: t.wechat.trim(), phone: t.phone.trim() },
    register: { open: flags.open, inviteReward: t.inviteReward.trim() },
    price: { lz: t.lz.trim() },
    app: { version: t.version.trim(), downloadUrl: t.downloadUrl.trim() },
    maintenance: { on: flags.on, message: t.message.trim() },
    match: { payTimeoutMinutes: Number(t.payTimeoutMinutes) },
    mall: { autoCompleteDays: Number(t.autoCompleteDays) },
  };
  const body: Body = {};
  for (const g of Object.keys(next) as Array<keyof typeof next>) {
    const was = g === 'price' ? { lz: s.price.lz === '0' ? '' : s.price.lz } : s[g];
    if (JSON.stringify(was) !== JSON.stringify(next[g])) (body as Record<string, unknown>)[g] = next[g];
  }
  return body;
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1.5, fontWeight: 600 }}>
        {title}
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        {children}
      </Stack>
    </Paper>
  );
}

function SettingsForm({ s, editable }: { s: S; editable: boolean }) {
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useSaveSettingsMutation();
  const { data: price } = useGetPriceQuery();
  const [open, setOpen] = useState(s.register.open);
  const [on, setOn] = useState(s.maintenance.on);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Texts>(textsOf(s), {
    name: { label: L.platform.name, required: true },
    wechat: { label: L.service.wechat },
    phone: {
      label: L.service.phone,
      validate: (v) => (new RegExp(SettingLimits.phonePattern).test(v.trim()) ? null : SettingMessages.badPhone),
    },
    inviteReward: {
      label: L.register.inviteReward,
      required: true,
      validate: (v) => validateMoney(v, 'LZ', L.register.inviteReward, { allowZero: true }),
    },
    // Checked only when edited: a platform that never set a price can still save its other groups.
    lz: {
      label: L.price.lz,
      validate: (v) => (v.trim() === textsOf(s).lz ? null : validateMoney(v, 'USDT', L.price.lz)),
    },
    version: {
      label: L.app.version,
      required: true,
      validate: (v) => (new RegExp(SettingLimits.versionPattern).test(v.trim()) ? null : SettingMessages.badVersion),
    },
    downloadUrl: {
      label: L.app.downloadUrl,
      validate: (v) => (isDownloadUrl(v.trim()) ? null : SettingMessages.badDownloadUrl),
    },
    message: { label: L.maintenance.message },
    payTimeoutMinutes: {
      label: L.match.payTimeoutMinutes,
      required: true,
      validate: intRule(SettingLimits.payTimeoutMinutes.min, SettingLimits.payTimeoutMinutes.max),
    },
    autoCompleteDays: {
      label: L.mall.autoCompleteDays,
      required: true,
      validate: intRule(SettingLimits.autoCompleteDays.min, SettingLimits.autoCompleteDays.max),
    },
  });
  const body = changedGroups(s, form.values, { open, on });
  // An unchanged empty price is no change (a platform that never set one).
  if (body.price && !body.price.lz && !textsOf(s).lz) delete body.price;
  const dirty = Object.keys(body).length > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!form.validate()) return;
    if (on && !form.values.message.trim()) {
      setFailure(SettingMessages.maintenanceNeedsMessage);
      return;
    }
    try {
      await save({ body: { ...body, updatedAt: s.updatedAt ?? 0 } }).unwrap();
      dispatch(toastShown('保存成功'));
    } catch (e) {
      setFailure(errorMessage(e));
    }
  };
  const f = (name: keyof Texts, extra: Record<string, unknown> = {}) => ({
    ...form.field(name),
    disabled: !editable,
    size: 'small' as const,
    ...extra,
  });

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack spacing={2}>
        {failure && <Alert severity="error">{failure}</Alert>}
        <Group title={SettingGroups.platform}>
          <TextField {...f('name')} slotProps={{ htmlInput: { maxLength: SettingLimits.nameMax } }} />
        </Group>
        <Group title={SettingGroups.service}>
          <TextField {...f('wechat')} />
          <TextField {...f('phone')} />
        </Group>
        <Group title={SettingGroups.register}>
          <FormControlLabel
            control={<Switch checked={open} onChange={(e) => setOpen(e.target.checked)} disabled={!editable} />}
            label={L.register.open}
          />
          <MoneyField asset="LZ" {...f('inviteReward')} />
        </Group>
        <Group title={SettingGroups.price}>
          <MoneyField
            asset="USDT"
            {...f('lz')}
            helperText={form.field('lz').helperText || '1 LZ 的价格，修改后记入价格历史'}
          />
          {price && (
            <Suspense fallback={<CircularProgress size={20} aria-label="图表加载中" />}>
              <PriceChart history={price.history} />
            </Suspense>
          )}
        </Group>
        <Group title={SettingGroups.app}>
          <TextField {...f('version')} placeholder="1.0.0" />
          <TextField {...f('downloadUrl')} placeholder="https://" />
        </Group>
        <Group title={SettingGroups.maintenance}>
          <FormControlLabel
            control={<Switch checked={on} onChange={(e) => setOn(e.target.checked)} disabled={!editable} />}
            label={L.maintenance.on}
          />
          <TextField {...f('message')} multiline minRows={2} />
        </Group>
        <Group title={`${SettingGroups.match}与${SettingGroups.mall}`}>
          <TextField {...f('payTimeoutMinutes')} />
          <TextField {...f('autoCompleteDays')} />
        </Group>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          {editable && (
            <Button type="submit" variant="contained" disabled={!dirty || isLoading}>
              保存
            </Button>
          )}
          <Typography variant="body2" color="text.secondary">
            {s.updatedAt ? `最后修改：${formatTime(s.updatedAt)}（${s.updatedBy}）` : '尚未修改，显示的是默认值'}
          </Typography>
        </Stack>
      </Stack>
    </Box>
  );
}

export default function SettingsPage() {
  const { data, isError, refetch } = useGetSettingsQuery();
  const editable = useCan('setting:update');
  const [version, setVersion] = useState(0);
  // The form restarts from what the server answers after each save (its canonical values).
  useEffect(() => setVersion((v) => v + 1), [data]);
  if (!data && isError)
    return (
      <Alert severity="error" action={<Button onClick={() => refetch()}>重试</Button>}>
        系统设置加载失败
      </Alert>
    );
  if (!data) return <CircularProgress aria-label="加载中" />;
  return <SettingsForm key={version} s={data} editable={editable} />;
}
