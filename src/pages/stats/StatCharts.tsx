/**
 * The daily charts of 数据统计 (MUI X Charts). Loaded with React.lazy by ./StatPage, so @mui/x-charts
 * is its own chunk, downloaded only when this page shows charts.
 *
 * `chartGroups` maps the server's series onto the charts (pure, tested on its own): one chart per
 * group of series and asset, so amounts of different assets never share a y axis.
 */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { LineChart } from '@mui/x-charts/LineChart';
import type { Asset } from '../../../domain/assets';
import { StatSeries, type StatSeriesKey } from '../../../domain/stats';
import { formatMoneyText } from '../../components/MoneyText';
import type { GetStatApiResponse } from '../../services/generated/stat';

export type StatSeriesData = GetStatApiResponse['series'][number];

/** The charts, in order: each a title and the series keys it draws. */
export const ChartGroups: ReadonlyArray<{ title: string; keys: readonly StatSeriesKey[] }> = [
  { title: '新增会员', keys: ['membersNew'] },
  { title: '充值到账 / 提现打款', keys: ['deposits', 'withdrawPaid'] },
  { title: '提取打款 / 新增质押 / 质押收益', keys: ['extractPaid', 'pledgeNew', 'pledgeIncome'] },
  { title: '订单数', keys: ['orders'] },
  { title: '销售额', keys: ['sales'] },
  { title: '能量释放', keys: ['energyReleased'] },
];

export interface ChartLine {
  key: StatSeriesKey;
  label: string;
  /** The points as sent (counts or decimal strings), for the tooltip. */
  points: string[];
  /** The points as numbers, for drawing only. */
  values: number[];
}

export interface ChartData {
  /** Stable id: the group title and the asset. */
  id: string;
  /** Title shown above the chart, with the asset for amounts ("销售额（USDT）"). */
  title: string;
  /** The asset of every line of the chart; null for counts. */
  asset: Asset | null;
  /** Full days (YYYY-MM-DD), one per point. */
  days: string[];
  /** Axis labels, MM-DD. */
  labels: string[];
  lines: ChartLine[];
}

/** The charts to draw for `series` over `days`: groups in ChartGroups order, split by asset. */
export function chartGroups(days: string[], series: StatSeriesData[]): ChartData[] {
  const labels = days.map((d) => d.slice(5));
  const out: ChartData[] = [];
  for (const group of ChartGroups) {
    const members = series.filter((s) => group.keys.includes(s.key));
    const assets = [...new Set(members.map((s) => s.asset))];
    for (const asset of assets) {
      const lines = members
        .filter((s) => s.asset === asset)
        .map((s) => ({
          key: s.key,
          label: StatSeries[s.key],
          points: s.points,
          // Charts only: a point becomes a float to be drawn. Amounts are shown from `points` (exact).
          values: s.points.map((p) => Number(p)),
        }));
      out.push({
        id: `${group.title}:${asset ?? ''}`,
        title: asset ? `${group.title}（${asset}）` : group.title,
        asset,
        days,
        labels,
        lines,
      });
    }
  }
  return out;
}

/**
 * An axis tick in the units Chinese operators read at a glance: 8,500 · 1.5万 · 12万 · 3.2亿 (one
 * decimal at most). Full figures ("10,000" and up) did not fit the axis and were cut to "10,0…".
 */
export function axisTick(v: number): string {
  const short = (n: number) => Number(n.toFixed(1));
  // The unit is chosen after rounding: 99,999,000 is 1亿, not 10000万.
  if (Math.abs(short(v / 1e4)) >= 1e4) return `${short(v / 1e8)}亿`;
  if (Math.abs(short(v)) >= 1e4) return `${short(v / 1e4)}万`;
  return v.toLocaleString('en-US', { maximumFractionDigits: 4 });
}

const yAxis = [
  {
    valueFormatter: (v: number | null, ctx: { location: string }) =>
      v === null ? '' : ctx.location === 'tick' ? axisTick(v) : String(v),
  },
];

const CHART_HEIGHT = 260;
const chartTexts = { noData: '暂无数据', loading: '加载中…' };

function Chart({ chart }: { chart: ChartData }) {
  const { asset, days, lines } = chart;
  const xAxis = {
    data: days,
    // Ticks show MM-DD; the tooltip the full day.
    valueFormatter: (day: string, ctx: { location: string }) => (ctx.location === 'tick' ? day.slice(5) : day),
  };
  const series = lines.map((line) => ({
    id: line.key,
    label: line.label,
    data: line.values,
    // The tooltip shows the point as sent: amounts stay exact decimal strings.
    valueFormatter: (_: number | null, { dataIndex }: { dataIndex: number }) => {
      const point = line.points[dataIndex] ?? '';
      return asset ? formatMoneyText(point, asset, { showAsset: true }) : point;
    },
  }));
  return (
    <Paper component="section" aria-label={chart.title} sx={{ p: 2, minWidth: 0 }}>
      <Typography component="h2" variant="subtitle1" sx={{ mb: 1 }}>
        {chart.title}
      </Typography>
      {asset ? (
        <LineChart
          height={CHART_HEIGHT}
          xAxis={[{ ...xAxis, scaleType: 'point' }]}
          yAxis={yAxis}
          series={series.map((s) => ({ ...s, showMark: days.length <= 31 }))}
          grid={{ horizontal: true }}
        />
      ) : (
        <BarChart
          height={CHART_HEIGHT}
          xAxis={[{ ...xAxis, scaleType: 'band' }]}
          yAxis={yAxis}
          series={series}
          grid={{ horizontal: true }}
          hideLegend
        />
      )}
    </Paper>
  );
}

export interface StatChartsProps {
  days: string[];
  series: StatSeriesData[];
}

export default function StatCharts({ days, series }: StatChartsProps) {
  const charts = chartGroups(days, series);
  return (
    <ChartsLocalizationProvider localeText={chartTexts}>
      <Box
        aria-label="每日趋势"
        role="group"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' } }}
      >
        {charts.map((chart) => (
          <Chart key={chart.id} chart={chart} />
        ))}
      </Box>
    </ChartsLocalizationProvider>
  );
}
