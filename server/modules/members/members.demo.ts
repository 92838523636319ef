/**
 * Demo members and zones (DOMAIN.md §4): ~20 zones and ~2,000 members with Chinese names made by
 * createZone / createMember — so every member has its uid, accounts and zone count — registered
 * over the last 90 days, most invited by an earlier member, with varied levels, statuses and
 * real-name states, and opening balances through the ledger (bill 后台调整). One password hash is
 * made once and shared ("demo1234"), or 2,000 argon2 hashes would take minutes.
 * Runs only on an empty member table; randomness is seeded.
 */
import { Assets, type Asset } from '../../../domain/assets';
import { BillType } from '../../../domain/bills';
import type { Ctx } from '../../context';
import { hashPassword } from '../../passwords';
import { applyChange } from '../ledger/ledger.service';
import { updateZone } from './zones.repository';
import { createMember } from './members.service';
import { createZone } from './zones.service';

const DAY = 86_400_000;
export const DEMO_MEMBER_PASSWORD = 'demo1234';

export interface MembersDemoSize {
  zones: number;
  members: number;
  days: number;
}
export const MEMBERS_DEMO_SIZE: MembersDemoSize = { zones: 20, members: 2000, days: 90 };

const SURNAMES =
  '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文';
const GIVEN =
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬鹏辉建国志强浩宇子涵欣怡梓萱一诺宇轩晨曦思远雨桐俊杰雅婷家豪嘉怡';
const REGIONS = ['华东', '华南', '华北', '华中', '西南', '西北', '东北', '港澳', '海外', '京津'];
const PHONE_HEADS = [
  '130',
  '131',
  '132',
  '133',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '155',
  '157',
  '158',
  '159',
  '166',
  '176',
  '177',
  '180',
  '181',
  '186',
  '187',
  '188',
  '189',
  '199',
];

/** mulberry32: the same seed gives the same demo data. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: ArrayLike<T>): T => xs[Math.floor(next() * xs.length)];
  /** Picks a key of `weights` with probability proportional to its weight. */
  const weighted = <K extends string | number>(weights: Array<[K, number]>): K => {
    let r = next() * weights.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of weights) if ((r -= w) < 0) return k;
    return weights[weights.length - 1][0];
  };
  return { next, int, pick, weighted };
}

export async function seedMembersDemo(ctx: Ctx, size: MembersDemoSize = MEMBERS_DEMO_SIZE): Promise<void> {
  const any = await ctx.db.selectFrom('member').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const rnd = seeded(20261123);
  const now = ctx.clock.now();
  const start = now - size.days * DAY;
  const passwordHash = await hashPassword(DEMO_MEMBER_PASSWORD);

  // Zones first (leaders are named once members exist).
  const zoneIds: number[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < size.zones; i++) {
      const name = `${REGIONS[i % REGIONS.length]}${['一', '二', '三', '四', '五'][Math.floor(i / REGIONS.length)] ?? i}区`;
      zoneIds.push(await createZone(trx, { name, sort: i + 1 }, start - DAY));
    }
  });

  const phones = new Set<string>();
  const members: Array<{ id: number; uid: string }> = [];
  const CHUNK = 250;
  for (let from = 0; from < size.members; from += CHUNK) {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = from; i < Math.min(size.members, from + CHUNK); i++) {
        let phone: string;
        do phone = `${rnd.pick(PHONE_HEADS)}${String(rnd.int(0, 99_999_999)).padStart(8, '0')}`;
        while (phones.has(phone));
        phones.add(phone);
        const nickname = `${rnd.pick(SURNAMES)}${rnd.pick(GIVEN)}${rnd.next() < 0.5 ? rnd.pick(GIVEN) : ''}`;
        // Registered in order over the period, so inviters are always older than those they invite.
        const at = start + Math.floor(((i + rnd.next()) * size.days * DAY) / size.members);
        const inviter = members.length && rnd.next() < 0.75 ? rnd.pick(members) : undefined;
        const zoneId = rnd.next() < 0.9 ? rnd.pick(zoneIds) : null;
        const m = await createMember(
          trx,
          { phone, nickname, inviterUid: inviter?.uid ?? null, zoneId },
          {
            now: at,
            passwordHash,
            level: rnd.weighted([
              [0, 55],
              [1, 18],
              [2, 12],
              [3, 8],
              [4, 5],
              [5, 2],
            ]),
            status: rnd.weighted([
              [1, 90],
              [2, 5],
              [3, 5],
            ]),
            realNameStatus: rnd.next() < 0.6 ? 1 : 0,
          },
        );
        members.push(m);
        // Opening balances for most members, through the ledger (bill 后台调整).
        for (const asset of Assets) {
          if (rnd.next() < 0.4) continue;
          const amount = openingAmount(asset, rnd.next());
          await applyChange(
            trx,
            {
              memberId: m.id,
              asset,
              available: amount,
              type: BillType.adminAdjust,
              ref: { kind: 'member', id: m.id },
              remark: asset === 'USDT' ? '体验金' : asset === 'LZ' ? '注册赠送' : '活动奖励',
            },
            at + 60_000,
          );
        }
      }
    });
  }

  // Each zone gets a leader from its own members.
  await ctx.db.transaction().execute(async (trx) => {
    for (const zoneId of zoneIds) {
      const leader = await trx
        .selectFrom('member')
        .select('uid')
        .where('zone_id', '=', zoneId)
        .orderBy('level', 'desc')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (leader) await updateZone(trx, zoneId, { leaderUid: leader.uid, now: start });
    }
  });
}

/** A believable opening balance in minor units: mostly small, a few large. */
function openingAmount(asset: Asset, r: number): bigint {
  const whole = r < 0.7 ? Math.floor(r * 1000) + 1 : r < 0.95 ? Math.floor(r * 20000) + 100 : Math.floor(r * 200000);
  const scale = { USDT: 1_000_000n, LZ: 10_000n, ENERGY: 100n }[asset];
  // Some cents: (r × 997) gives a stable fraction.
  return BigInt(whole) * scale + (BigInt(Math.floor(r * 997)) * scale) / 1000n;
}
