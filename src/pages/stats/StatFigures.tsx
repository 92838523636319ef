/** 数据统计's figure cards: a range total or the state now (当前), counts and amounts in their asset's decimals. */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { displayMoney } from '../../../domain/money';
import { StatFigures, type StatFigureKey } from '../../../domain/stats';
import CardGrid from '../../components/CardGrid';
import MoneyText from '../../components/MoneyText';
import type { GetStatApiResponse } from '../../services/generated/stat';

const NOW_FIGURES: ReadonlySet<StatFigureKey> = new Set([
  'membersTotal',
  'depositsPending',
  'withdrawPending',
  'extractPending',
  'pledgeActive',
]);
const PEOPLE: ReadonlySet<StatFigureKey> = new Set(['membersTotal', 'membersNew']);
const ZERO = /^[+-]?0*(?:\.0*)?$/;

/** True when every point of every series is zero (compared as text: amounts are never parsed). */
export const allZero = (series: GetStatApiResponse['series']) =>
  series.every((s) => s.points.every((p) => ZERO.test(p.trim())));

type Figure = GetStatApiResponse['figures'][number];

function FigureCard({ figure, title }: { figure: Figure; title: string }) {
  const count = figure.count === null ? null : displayMoney(String(figure.count), 0);
  const unit = PEOPLE.has(figure.key) ? '人' : '笔';
  const id = `stat-figure-${figure.key}-${figure.asset ?? 'n'}`;
  return (
    <Card component="section" aria-labelledby={id} variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
          <Typography id={id} component="h2" variant="body2" color="text.secondary" noWrap>
            {title}
          </Typography>
          <Typography variant="caption" color={NOW_FIGURES.has(figure.key) ? 'primary' : 'text.secondary'}>
            {NOW_FIGURES.has(figure.key) ? '当前' : '区间合计'}
          </Typography>
        </Stack>
        {figure.amount !== null && figure.asset ? (
          <>
            <Typography variant="h6" component="p" sx={{ mt: 1 }}>
              <MoneyText value={figure.amount} asset={figure.asset} showAsset />
            </Typography>
            {count !== null && (
              <Typography variant="body2" color="text.secondary">
                共 {count} {unit}
              </Typography>
            )}
          </>
        ) : (
          <Typography variant="h6" component="p" sx={{ mt: 1 }}>
            {count ?? '-'}
            {count !== null && (
              <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 0.5 }}>
                {unit}
              </Typography>
            )}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

export function Figures({ figures }: { figures: Figure[] }) {
  const seen = new Map<string, number>();
  for (const f of figures) seen.set(f.key, (seen.get(f.key) ?? 0) + 1);
  return (
    <CardGrid label="统计指标" min={200}>
      {figures.map((f) => {
        // A key repeated for several assets (商城订单 per asset) names its asset in the title.
        const title =
          (seen.get(f.key) ?? 0) > 1 && f.asset ? `${StatFigures[f.key]}（${f.asset}）` : StatFigures[f.key];
        return (
          <li key={`${f.key}:${f.asset ?? ''}`}>
            <FigureCard figure={f} title={title} />
          </li>
        );
      })}
    </CardGrid>
  );
}

/** The two days of 自定义 and 查询; keeps its draft until asked, refuses a range the server would. */
