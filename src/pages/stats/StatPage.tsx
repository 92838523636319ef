/**
 * 数据统计: the figures of a range of Asia/Shanghai days (range totals, and a few states now) and
 * their daily charts. The range is a quick pick (今日 / 近7天 / 近30天 / 本月) or a custom one, kept in
 * the URL (`?range=30d`, `?range=custom&start=…&end=…`) so a reload keeps it; 近7天 by default.
 * The charts (@mui/x-charts) load on demand from ./StatCharts, their own chunk.
 */
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { STAT_MAX_DAYS } from '../../../domain/stats';
import { isDay, SHANGHAI_OFFSET } from '../../../domain/time';
import { useGetStatQuery } from '../../services/stats';
import { allZero, Figures } from './StatFigures';

export { allZero };

const StatCharts = lazy(() => import('./StatCharts'));

const DAY_MS = 86_400_000;

/** The quick picks, and 自定义. */
export const StatRanges = {
  today: '今日',
  '7d': '近7天',
  '30d': '近30天',
  month: '本月',
  custom: '自定义',
} as const;
export type StatRangeKey = keyof typeof StatRanges;
type Preset = Exclude<StatRangeKey, 'custom'>;
const DEFAULT_RANGE: Preset = '7d';

export interface DayRange {
  start: string;
  end: string;
}

/** Today in Asia/Shanghai, `YYYY-MM-DD`. */
export const shanghaiToday = (now = Date.now()) => new Date(now + SHANGHAI_OFFSET).toISOString().slice(0, 10);

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The days of a quick pick, ending today. */
export function presetRange(key: Preset, today: string): DayRange {
  switch (key) {
    case 'today':
      return { start: today, end: today };
    case '7d':
      return { start: addDays(today, -6), end: today };
    case '30d':
      return { start: addDays(today, -29), end: today };
    case 'month':
      return { start: `${today.slice(0, 8)}01`, end: today };
  }
}

/** Why a custom range cannot be asked for (the server's own words), or null when it can. */
export function rangeError({ start, end }: DayRange): string | null {
  if (!start || !end) return '请选择开始日期和结束日期';
  if (!isDay(start) || !isDay(end)) return '请输入正确的日期';
  if (start > end) return '开始日期不能晚于结束日期';
  const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
  if (days > STAT_MAX_DAYS) return `统计范围最长 ${STAT_MAX_DAYS} 天`;
  return null;
}

/** The range the URL asks for; a missing or broken one is 近7天. */
export function rangeFromParams(params: URLSearchParams, today: string): DayRange & { key: StatRangeKey } {
  const key = params.get('range');
  if (key === 'custom') {
    const custom = { start: params.get('start') ?? '', end: params.get('end') ?? '' };
    if (rangeError(custom) === null) return { key, ...custom };
  } else if (key && Object.hasOwn(StatRanges, key)) {
    return { key: key as Preset, ...presetRange(key as Preset, today) };
  }
  return { key: DEFAULT_RANGE, ...presetRange(DEFAULT_RANGE, today) };
}

/** Figures of the state now, not of the range. */
function CustomRange({ initial, onApply }: { initial: DayRange; onApply: (range: DayRange) => void }) {
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const field = (name: keyof DayRange, label: string) => (
    <TextField
      type="date"
      size="small"
      label={label}
      value={draft[name]}
      error={error !== null}
      onChange={(e) => {
        setDraft((d) => ({ ...d, [name]: e.target.value }));
        setError(null);
      }}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ width: 170 }}
    />
  );
  const apply = () => {
    const why = rangeError(draft);
    setError(why);
    if (why === null) onApply(draft);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      {field('start', '开始日期')}
      <span aria-hidden>至</span>
      {field('end', '结束日期')}
      <Button variant="contained" onClick={apply}>
        查询
      </Button>
      {error && (
        <Typography role="alert" variant="body2" color="error">
          {error}
        </Typography>
      )}
    </Stack>
  );
}

export default function StatPage() {
  const [params, setParams] = useSearchParams();
  const today = shanghaiToday();
  const range = rangeFromParams(params, today);
  // 自定义 chosen but not yet asked for: the days show, the figures stay those of the URL's range.
  const [editing, setEditing] = useState(false);
  const picked: StatRangeKey = editing ? 'custom' : range.key;
  // currentData: the figures of the range picked, never the previous range's under the new pick.
  const { currentData: data, isFetching, isError, refetch } = useGetStatQuery({ start: range.start, end: range.end });

  const pick = (key: StatRangeKey | null) => {
    if (key === null || key === picked) return;
    if (key === 'custom') {
      setEditing(true);
      return;
    }
    setEditing(false);
    setParams({ range: key });
  };

  return (
    <Stack spacing={2}>
      <Paper sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1.5 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={picked}
            onChange={(_, key: StatRangeKey | null) => pick(key)}
            aria-label="统计区间"
          >
            {(Object.keys(StatRanges) as StatRangeKey[]).map((key) => (
              <ToggleButton key={key} value={key}>
                {StatRanges[key]}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {picked === 'custom' && (
            <CustomRange
              key={`${range.start}~${range.end}`}
              initial={{ start: range.start, end: range.end }}
              onApply={(r) => {
                setEditing(false);
                setParams({ range: 'custom', start: r.start, end: r.end });
              }}
            />
          )}
        </Stack>
        {data && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            统计区间：{data.start} 至 {data.end}（共 {data.days.length} 天，北京时间）
          </Typography>
        )}
      </Paper>
      {isFetching && data && <CircularProgress size={20} aria-label="加载中" />}
      {!data ? (
        isFetching ? (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
            <CircularProgress aria-label="加载中" />
          </Box>
        ) : (
          isError && (
            <Alert severity="error" action={<Button onClick={() => refetch()}>重试</Button>}>
              统计数据加载失败
            </Alert>
          )
        )
      ) : (
        <>
          <Figures figures={data.figures} />
          {allZero(data.series) ? (
            <Paper sx={{ p: 4, textAlign: 'center' }}>
              <Typography role="status" color="text.secondary">
                该区间暂无数据
              </Typography>
            </Paper>
          ) : (
            <Suspense
              fallback={
                <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
                  <CircularProgress aria-label="图表加载中" />
                </Box>
              }
            >
              <StatCharts days={data.days} series={data.series} />
            </Suspense>
          )}
        </>
      )}
    </Stack>
  );
}
