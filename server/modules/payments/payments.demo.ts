/**
 * Demo payment methods and transfers (DOMAIN.md §4), made by the member-side services
 * (addPaymentMethod, transfer) and the manager's paymentOpt, so every method has a believable review
 * and every transfer its two bills. Methods end up in every status (待审核, 已通过, 已驳回, 已禁用).
 *
 * Members come from the member table (the members step, when it runs first); with fewer than 6 this
 * step opens a few demo members of its own (uid 99xxxxxx) funded through the ledger, so the pages
 * have data whatever the order of the steps. Times walk through the last 60 days on a clock of this
 * step's own; randomness is seeded.
 */
import { BillType } from '../../../domain/bills';
import type { PaymentAction, PaymentType } from '../../../domain/payments';
import type { Actor, Ctx } from '../../context';
import { AppError } from '../../errors';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { applyChange, balancesOf } from '../ledger/ledger.service';
import { createMembers } from '../members/members.service';
import { transfer } from '../transfers/transfers.service';
import { addPaymentMethod, paymentOpt } from './payments.service';
import { seededRandom as random } from '../../seed/random';
import { storeGeneratedImage } from '../uploads/uploads.service';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Distinct QR pictures made per type (the demo's many methods share them: each is a real image). */
const QR_IMAGES = 4;

/**
 * A 支付宝 (type 2) or 微信 (type 3) 收款码 of the demo: a real QR code (made locally by `qrcode`) of a
 * demo URL, framed in the app's colour like the codes members upload, stored as any upload is (again
 * when asked again without `made`: the simulator's methods get real images too).
 */
export async function demoQr(ctx: Ctx, type: 2 | 3, n: number, made: Map<string, string> = new Map()): Promise<string> {
  const key = `demo/qr/${type === 2 ? 'alipay' : 'wechat'}-${n}`;
  const known = made.get(key);
  if (known) return known;
  const QRCode = await import('qrcode');
  const code = await QRCode.toString(`https://pay.example.com/demo/${type === 2 ? 'alipay' : 'wechat'}/${n}`, {
    type: 'svg',
    margin: 4, // the quiet zone the QR standard asks for
  });
  const color = type === 2 ? '#1677ff' : '#07c160';
  const size = Number(/viewBox="0 0 (\d+)/.exec(code)?.[1] ?? 33);
  const inner = code.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  // No caption: a server's image library may have no CJK font (text would render as boxes).
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="340" viewBox="0 0 300 340">
<rect width="300" height="340" rx="16" fill="${color}"/>
<rect x="20" y="20" width="260" height="260" rx="8" fill="#fff"/>
<g transform="translate(20 20) scale(${260 / size})" shape-rendering="crispEdges">${inner}</g>
<circle cx="150" cy="310" r="12" fill="#fff"/>
</svg>`;
  const url = await storeGeneratedImage(ctx, key, Buffer.from(svg));
  made.set(key, url);
  return url;
}

const NAMES = ['王芳', '李娜', '张伟', '刘洋', '陈静', '杨磊', '赵敏', '黄强', '周杰', '吴霞', '徐涛', '孙丽'];
const BANKS = [
  ['中国工商银行', '北京朝阳支行'],
  ['中国建设银行', '上海浦东支行'],
  ['招商银行', '深圳南山支行'],
  ['中国农业银行', '杭州西湖支行'],
];
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

async function demoMembers(ctx: Ctx, now: number): Promise<Array<{ id: number; uid: string }>> {
  const existing = await ctx.db.selectFrom('member').select(['id', 'uid']).orderBy('id').limit(40).execute();
  if (existing.length >= 6) return existing.map((m) => ({ id: Number(m.id), uid: m.uid }));
  const out = existing.map((m) => ({ id: Number(m.id), uid: m.uid }));
  for (let i = 1; out.length < 8; i += 1) {
    const uid = `99${String(i).padStart(6, '0')}`;
    const taken = await ctx.db.selectFrom('member').select('id').where('uid', '=', uid).executeTakeFirst();
    if (taken) continue;
    const created = now - 70 * DAY + i * HOUR;
    const phone = `199${String(i).padStart(8, '0')}`;
    const id = await ctx.db.transaction().execute(async (trx) => {
      const [{ id: memberId }] = await createMembers(trx, [
        {
          uid,
          phone,
          nickname: NAMES[i % NAMES.length],
          // Not a usable password: demo members never log in.
          passwordHash: '!demo',
          createdAt: created,
        },
      ]);
      for (const [asset, amount] of [
        ['USDT', 5_000_000_000n],
        ['LZ', 2_000_000n],
      ] as const)
        await applyChange(
          trx,
          { memberId, asset, available: amount, type: BillType.adminAdjust, remark: '演示数据：初始余额' },
          created,
        );
      return memberId;
    });
    out.push({ id, uid });
  }
  return out;
}

export async function seedPaymentsTransfersDemo(ctx: Ctx): Promise<void> {
  if (await ctx.db.selectFrom('payment_method').select('id').limit(1).executeTakeFirst()) return;
  const end = ctx.clock.now();
  const members = await demoMembers(ctx, end);
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  if (!admin) return;
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };
  const rnd = random(20261123);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  let t = end - 60 * DAY;
  const at = (time: number): Ctx => ({ ...ctx, clock: { now: () => time } });

  // Payment methods: each member adds one or two; a manager reviews most of them hours later.
  const outcomes: Array<PaymentAction[]> = [[], ['approve'], ['approve'], ['reject'], ['approve', 'disable']];
  const qrs = new Map<string, string>();
  for (const [i, m] of members.entries()) {
    const count = 1 + (i % 2);
    for (let k = 0; k < count; k += 1) {
      t += Math.floor(rnd() * 20 * HOUR) + HOUR;
      const type = (((i + k) % 4) + 1) as PaymentType;
      const holder = NAMES[i % NAMES.length];
      const [bank, branch] = pick(BANKS);
      const account =
        type === 1
          ? `62${Array.from({ length: 15 }, () => Math.floor(rnd() * 10)).join('')}`
          : type === 2
            ? `1${38 + (i % 2)}${String(10_000_000 + i * 7919).slice(0, 8)}`
            : type === 3
              ? `wx_${m.uid}`
              : `T${Array.from({ length: 33 }, () => pick(B58.split(''))).join('')}`;
      const { id } = await addPaymentMethod(at(t), {
        memberId: m.id,
        type,
        holder,
        account,
        bank,
        branch,
        qrUrl: type === 2 || type === 3 ? await demoQr(ctx, type, i % QR_IMAGES, qrs) : undefined,
      });
      let when = t;
      for (const action of outcomes[(i + k) % outcomes.length]) {
        when += Math.floor(rnd() * 6 * HOUR) + HOUR;
        await paymentOpt(at(when), actor, {
          id,
          action,
          remark:
            action === 'reject'
              ? '收款人姓名与实名信息不符'
              : action === 'disable'
                ? '账户存在风险，暂停使用'
                : undefined,
        });
      }
    }
  }

  // Transfers between members, in both assets; a refused one (balance) is simply skipped.
  t = end - 45 * DAY;
  for (let n = 0; n < Math.min(40, members.length * 4); n += 1) {
    t += Math.floor(rnd() * 24 * HOUR) + HOUR;
    const from = pick(members);
    let to = pick(members);
    if (to.id === from.id) to = members[(members.indexOf(from) + 1) % members.length];
    const asset = rnd() < 0.6 ? 'USDT' : 'LZ';
    const available = (await balancesOf(ctx.db, from.id))[asset].available;
    const unit = asset === 'USDT' ? 1_000_000n : 10_000n;
    const whole = BigInt(Math.floor(rnd() * 200) + 1);
    if (whole * unit * 2n > available) continue;
    try {
      await transfer(at(t), { fromMemberId: from.id, toUid: to.uid, asset, amount: `${whole}.${n % 10}` });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
}
