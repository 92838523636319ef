/** The LZ price's last 30 days as a small line (x-charts, loaded with the settings page only). */
import { LineChart } from '@mui/x-charts/LineChart';

export default function PriceChart({ history }: { history: Array<{ date: string; price: string | null }> }) {
  if (!history.some((h) => h.price !== null)) return null;
  return (
    <div role="figure" aria-label="近30天LZ价格">
      <LineChart
        height={180}
        // A chart draws floats: the prices are shown, never computed with.
        series={[
          {
            data: history.map((h) => (h.price === null ? null : Number(h.price))),
            label: 'LZ 价格（USDT）',
            showMark: false,
          },
        ]}
        xAxis={[{ scaleType: 'point', data: history.map((h) => h.date.slice(5)) }]}
        margin={{ left: 8, right: 16, top: 32, bottom: 8 }}
      />
    </div>
  );
}
