/**
 * Demo content through the same services the console calls: notices in every status (one pinned), both
 * texts, and a month of LZ price changes (the settings page's chart). Runs once: it stops when a notice
 * exists.
 */
import { formatAsset } from '../../../domain/money';
import type { Actor, Ctx } from '../../context';
import type { Clock } from '../../clock';
import { DAY_MS, dayOf, dayStart } from '../../db/dayBuckets';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { seededRandom } from '../../seed/random';
import { savePlatformSettings } from '../settings/platform.service';
import { noticeOpt, saveProtocol } from './content.service';

const HOUR = 3_600_000;

const NOTICES: Array<{ title: string; content: string; pinned?: boolean; status: 0 | 1 | 2 }> = [
  {
    title: '关于春节期间提现到账时间的说明',
    pinned: true,
    status: 1,
    content:
      '<p>春节期间（2月9日—2月17日）提现审核照常进行，<strong>到账时间可能延长至 24 小时</strong>。</p>' +
      '<table><tbody><tr><th>日期</th><th>审核时间</th></tr><tr><td>2月9日—2月12日</td><td>10:00—18:00</td></tr>' +
      '<tr><td>2月13日—2月17日</td><td>09:00—22:00</td></tr></tbody></table>',
  },
  {
    title: '商城新品上架：保温杯与种子礼包',
    status: 1,
    content:
      '<h2>新品上架</h2><ul><li>304 不锈钢保温杯，多色可选</li><li>种子礼包，购买即得种子，每日释放能量</li></ul>',
  },
  { title: '系统升级维护通知', status: 2, content: '<p>系统将于本周六 02:00—04:00 升级维护，期间暂停提现与撮合。</p>' },
  { title: '质押新模式预告（草稿）', status: 0, content: '<p>进阶 180 天模式即将推出，日收益率待定。</p>' },
];

const INTRO =
  '<h2>平台介绍</h2><p>本平台是集社区、商城与数字资产于一体的会员服务平台。会员可充值 USDT、质押 LZ 获取每日收益，' +
  '在商城购买商品与种子，种子每日释放能量。</p><h3>安全保障</h3><ul><li>资金变动全程记账，可随时查询账单</li>' +
  '<li>提现人工审核，异常即时冻结</li></ul>';
const PLAY =
  '<h2>玩法说明</h2><ol><li><strong>质押</strong>：选择质押模式锁定 LZ，按日收益率每日发放收益，到期返还本金。</li>' +
  '<li><strong>种子</strong>：商城购买或活动获得，每日释放能量。</li><li><strong>撮合</strong>：会员之间买卖 LZ，' +
  '买方付款后卖方确认放币，超时未付款自动取消。</li></ol>';

export async function seedContentDemo(ctx: Ctx, days = 30): Promise<void> {
  if (await ctx.db.selectFrom('notice').select('id').limit(1).executeTakeFirst()) return;
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  if (!admin) return;
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };
  const end = ctx.clock.now();
  const clock = { t: dayStart(dayOf(end) - days) + 10 * HOUR };
  const dctx: Ctx = { ...ctx, clock: { now: () => clock.t } as Clock };

  // A price change every few days, a random walk around 0.5 USDT in USDT minor units.
  const next = seededRandom(20261127);
  const int = (a: number, b: number) => a + Math.floor(next() * (b - a + 1));
  let micros = 500_000;
  while (clock.t < end - DAY_MS) {
    micros = Math.max(100_000, micros + int(-40_000, 50_000));
    await savePlatformSettings(dctx, actor, { price: { lz: formatAsset(BigInt(micros), 'USDT') } });
    clock.t += int(2, 4) * DAY_MS;
  }
  clock.t = end - 2 * HOUR;
  await saveProtocol(dctx, actor, { id: 6, title: '平台介绍', content: INTRO });
  await saveProtocol(dctx, actor, { id: 8, title: '玩法说明', content: PLAY });
  for (const n of [...NOTICES].reverse()) {
    clock.t += 60_000;
    const made = await noticeOpt(dctx, actor, {
      action: 'create',
      title: n.title,
      content: n.content,
      pinned: n.pinned,
      publish: n.status !== 0,
    });
    if (made && n.status === 2) await noticeOpt(dctx, actor, { action: 'offline', id: made.id });
  }
}
