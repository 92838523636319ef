/**
 * 系统设置: the platform's grouped settings (one `setting` row per group) and the LZ price (a row per
 * change in lz_price). A save takes the groups the operator changed, validates each field with a
 * message naming it, and writes one op-log row listing every field as 旧 → 新.
 */
import type { Static } from '@sinclair/typebox';
import { formatAsset } from '../../../domain/money';
import {
  isDownloadUrl,
  SettingLabels,
  SettingLimits,
  SettingMessages,
  type SettingGroup,
} from '../../../domain/platformSettings';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Actor, Ctx } from '../../context';
import type { Database } from '../../db/schema';
import { dateOfDay, dayOf, dayStart } from '../../db/dayBuckets';
import { badInput, conflict } from '../../errors';
import { amountOf, canonicalAmount } from '../../http/amounts';
import { changeList, managerAction } from '../oplog/managerAction';
import { insertPrice, priceAt, priceChanges, type PriceRow } from './price.repository';
import type { PlatformSettingsBody } from './settings.schema';
import { getSettingWithMeta, putSetting, type SettingKey, type Settings } from './settings.service';

type Body = Static<typeof PlatformSettingsBody>;
type Db = Kysely<Database> | Transaction<Database>;
/** The advisory lock a settings save holds on PostgreSQL (any constant no other lock uses). */
const SETTINGS_LOCK = 7_301_113;
/** The groups kept as `setting` rows (price is kept in lz_price). */
const STORED = [
  'platform',
  'service',
  'register',
  'app',
  'maintenance',
  'match',
  'mall',
] as const satisfies ReadonlyArray<SettingGroup & SettingKey>;
type Stored = (typeof STORED)[number];

/** The settings' version: the time of the newest change of any group or of the price (null: never). */
function versionOf(
  read: Array<{ meta: { updatedAt: number | null; updatedBy: string } }>,
  price: PriceRow | undefined,
) {
  let updatedAt: number | null = price ? Number(price.created_at) : null;
  let updatedBy = price?.created_by ?? '';
  for (const r of read)
    if (r.meta.updatedAt !== null && (updatedAt === null || r.meta.updatedAt > updatedAt)) {
      updatedAt = r.meta.updatedAt;
      updatedBy = r.meta.updatedBy;
    }
  return { updatedAt, updatedBy };
}

const readAll = (db: Db, now: number) =>
  Promise.all([Promise.all(STORED.map((k) => getSettingWithMeta(db, k))), priceAt(db, now)] as const);

export async function getPlatformSettings(ctx: Ctx) {
  const [read, price] = await readAll(ctx.db, ctx.clock.now());
  const out = Object.fromEntries(STORED.map((k, i) => [k, read[i].value])) as { [K in Stored]: Settings[K] };
  return { ...out, price: { lz: price ? formatAsset(price.price, 'USDT') : '0' }, ...versionOf(read, price) };
}

/** Each group as it will be stored, validated (a refusal names the field); price as minor units. */
function validated(body: Body) {
  const v: Partial<{ [K in Stored]: Settings[K] }> = {};
  if (body.platform) {
    const name = body.platform.name.trim();
    if (!name) throw badInput(`请填写${SettingLabels.platform.name}`);
    v.platform = { name };
  }
  if (body.service) {
    const phone = body.service.phone.trim();
    if (!new RegExp(SettingLimits.phonePattern).test(phone)) throw badInput(SettingMessages.badPhone);
    v.service = { wechat: body.service.wechat.trim(), phone };
  }
  if (body.register)
    v.register = {
      open: body.register.open,
      inviteReward: canonicalAmount(body.register.inviteReward, 'LZ', SettingLabels.register.inviteReward, {
        allowZero: true,
      }),
    };
  if (body.app) {
    const version = body.app.version.trim();
    const downloadUrl = body.app.downloadUrl.trim();
    if (!new RegExp(SettingLimits.versionPattern).test(version)) throw badInput(SettingMessages.badVersion);
    if (!isDownloadUrl(downloadUrl)) throw badInput(SettingMessages.badDownloadUrl);
    v.app = { version, downloadUrl };
  }
  if (body.maintenance) {
    const message = body.maintenance.message.trim();
    if (body.maintenance.on && !message) throw badInput(SettingMessages.maintenanceNeedsMessage);
    v.maintenance = { on: body.maintenance.on, message };
  }
  if (body.match) v.match = { payTimeoutMinutes: body.match.payTimeoutMinutes };
  if (body.mall) v.mall = { autoCompleteDays: body.mall.autoCompleteDays };
  const price = body.price ? amountOf(body.price.lz, 'USDT', SettingLabels.price.lz) : undefined;
  return { groups: v, price };
}

/** How a field's value reads in the op log. */
const shown = (x: unknown) => (typeof x === 'boolean' ? (x ? '开' : '关') : String(x) === '' ? '（空）' : String(x));

export async function savePlatformSettings(ctx: Ctx, actor: Actor, body: Body) {
  const { groups, price } = validated(body);
  const keys = STORED.filter((k) => groups[k] !== undefined);
  if (!keys.length && price === undefined) throw badInput(SettingMessages.nothingToSave);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    // One save at a time (SQLite's write lock does this by itself): the version read below is the one
    // this save replaces, so of two managers saving over the same version one wins and one is refused.
    if (ctx.kind === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(SETTINGS_LOCK)})`.execute(trx);
    if (body.updatedAt !== undefined) {
      const [read, price] = await readAll(trx, now);
      if ((versionOf(read, price).updatedAt ?? 0) !== body.updatedAt) throw conflict(SettingMessages.changed);
    }
    const changes: string[] = [];
    for (const key of keys) {
      const old = (await getSettingWithMeta(trx, key)).value as unknown as Record<string, unknown>;
      const next = groups[key]! as unknown as Record<string, unknown>;
      const labels = SettingLabels[key] as Record<string, string>;
      for (const field of Object.keys(labels))
        if (shown(old[field]) !== shown(next[field]))
          changes.push(`${labels[field]}：${shown(old[field])} → ${shown(next[field])}`);
      await putSetting(trx, key, groups[key] as Settings[typeof key], actor.username, now);
    }
    if (price !== undefined) {
      const old = await priceAt(trx, now);
      if (!old || BigInt(old.price) !== price) {
        await insertPrice(trx, price, actor.username, now);
        changes.push(
          `${SettingLabels.price.lz}：${old ? formatAsset(old.price, 'USDT') : '（未设置）'} → ${formatAsset(price, 'USDT')}`,
        );
      }
    }
    return {
      result: null,
      log: { code: 'setting:update', target: 'setting', summary: `修改系统设置${changeList(changes, '（无变化）')}` },
    };
  });
  return getPlatformSettings(ctx);
}

export const PRICE_HISTORY_DAYS = 30;

/** The price now and at the end of each of the last 30 days (today last). */
export async function getPrice(ctx: Ctx) {
  const now = ctx.clock.now();
  const today = dayOf(now);
  const first = today - PRICE_HISTORY_DAYS + 1;
  const before = dayStart(first) - 1;
  const [start, changes, current] = await Promise.all([
    priceAt(ctx.db, before),
    priceChanges(ctx.db, before, now),
    priceAt(ctx.db, now),
  ]);
  const history: Array<{ date: string; price: string | null }> = [];
  let price = start ? formatAsset(start.price, 'USDT') : null;
  let i = 0;
  for (let day = first; day <= today; day++) {
    const end = dayStart(day + 1);
    while (i < changes.length && Number(changes[i].created_at) < end) price = formatAsset(changes[i++].price, 'USDT');
    history.push({ date: dateOfDay(day), price });
  }
  return {
    now: current ? formatAsset(current.price, 'USDT') : null,
    updatedAt: current ? Number(current.created_at) : null,
    updatedBy: current?.created_by ?? '',
    history,
  };
}
