/**
 * Settings: one row per key holding JSON, read with the key's defaults filled in. Each key's shape is
 * declared once in `Settings` below with its default; the pages that edit them (deposit, withdrawal
 * and the system settings page) validate before they put. Values that are amounts are decimal strings
 * in the asset's units, as on the wire.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Chain } from '../../../domain/deposits';
import type { Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export interface DepositSetting {
  /** Members may submit deposits. */
  open: boolean;
  /** Smallest deposit, USDT decimal string. */
  min: string;
  /** Chains members may deposit on. */
  chains: Chain[];
  /** Tips shown to members on the deposit page. */
  tips: string;
}

export interface WithdrawSetting {
  open: boolean;
  /** Smallest amount per request (decimal string of the type's asset). */
  min: string;
  /** Largest amount per request; "0" means no limit. */
  max: string;
  /** Requests per member per day (Asia/Shanghai); 0 means no limit. */
  maxTimesPerDay: number;
  /** Fee rate, decimal string, 0 ≤ r < 1. */
  feeRate: string;
  /** Smallest fee (decimal string of the asset). */
  feeMin: string;
  /** Requests up to this amount are approved at once; "0" approves none automatically. */
  autoApproveMax: string;
  /** "HH:mm-HH:mm" in Asia/Shanghai. */
  openHours: string;
}

/** The platform's payout wallet of a withdrawal type. */
export interface WithdrawAccount {
  chain: Chain | '';
  address: string;
  remark: string;
}

/** Matches: how long a buyer has to pay before the match is cancelled (seller's LZ returned). */
export interface MatchSetting {
  payTimeoutMinutes: number;
}

/** The mall: shipped orders complete by themselves this many days after shipping. */
export interface MallSetting {
  autoCompleteDays: number;
}

/** 系统设置's groups (domain/platformSettings.ts names every field). */
export interface PlatformSetting {
  name: string;
}
export interface ServiceSetting {
  wechat: string;
  phone: string;
}
export interface RegisterSetting {
  open: boolean;
  /** LZ decimal string granted to the inviter (read by the member app's registration). */
  inviteReward: string;
}
export interface AppSetting {
  version: string;
  downloadUrl: string;
}
export interface MaintenanceSetting {
  on: boolean;
  message: string;
}

export interface Settings {
  platform: PlatformSetting;
  service: ServiceSetting;
  register: RegisterSetting;
  app: AppSetting;
  maintenance: MaintenanceSetting;
  match: MatchSetting;
  mall: MallSetting;
  deposit: DepositSetting;
  'withdraw.1': WithdrawSetting;
  'withdraw.2': WithdrawSetting;
  'withdrawAccount.1': WithdrawAccount;
  'withdrawAccount.2': WithdrawAccount;
}
export type SettingKey = keyof Settings;

export const settingDefaults: { [K in SettingKey]: Settings[K] } = {
  platform: { name: 'LZ 社区' },
  service: { wechat: '', phone: '' },
  register: { open: true, inviteReward: '0' },
  app: { version: '1.0.0', downloadUrl: '' },
  maintenance: { on: false, message: '' },
  match: { payTimeoutMinutes: 30 },
  mall: { autoCompleteDays: 7 },
  deposit: { open: true, min: '10', chains: ['TRC20', 'ERC20'], tips: '' },
  'withdraw.1': {
    open: true,
    min: '10',
    max: '50000',
    maxTimesPerDay: 3,
    feeRate: '0.01',
    feeMin: '1',
    autoApproveMax: '0',
    openHours: '00:00-24:00',
  },
  'withdraw.2': {
    open: true,
    min: '100',
    max: '1000000',
    maxTimesPerDay: 3,
    feeRate: '0.005',
    feeMin: '1',
    autoApproveMax: '0',
    openHours: '00:00-24:00',
  },
  'withdrawAccount.1': { chain: '', address: '', remark: '' },
  'withdrawAccount.2': { chain: '', address: '', remark: '' },
};

export interface SettingMeta {
  updatedAt: number | null;
  updatedBy: string;
}

/** A setting with its defaults filled in (fields a stored value lacks take the default). */
export async function getSetting<K extends SettingKey>(db: Db, key: K): Promise<Settings[K]> {
  return (await getSettingWithMeta(db, key)).value;
}

export async function getSettingWithMeta<K extends SettingKey>(
  db: Db,
  key: K,
): Promise<{ value: Settings[K]; meta: SettingMeta }> {
  const row = await db
    .selectFrom('setting')
    .select(['value', 'updated_at', 'updated_by'])
    .where('key', '=', key)
    .executeTakeFirst();
  const defaults = settingDefaults[key];
  if (!row) return { value: { ...defaults }, meta: { updatedAt: null, updatedBy: '' } };
  let stored: Partial<Settings[K]> = {};
  try {
    const parsed = JSON.parse(row.value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed;
  } catch {
    stored = {};
  }
  const value = { ...defaults } as Settings[K];
  for (const k of Object.keys(defaults) as Array<keyof Settings[K]>) {
    if (stored[k] !== undefined && typeof stored[k] === typeof defaults[k])
      value[k] = stored[k] as Settings[K][typeof k];
  }
  return { value, meta: { updatedAt: Number(row.updated_at), updatedBy: row.updated_by } };
}

/** Stores a whole setting (validated by the caller), inside the caller's transaction. */
export async function putSetting<K extends SettingKey>(
  trx: Db,
  key: K,
  value: Settings[K],
  by: string,
  now: number,
): Promise<void> {
  const json = JSON.stringify(value);
  await trx
    .insertInto('setting')
    .values({ key, value: json, updated_at: now, updated_by: by.slice(0, 64) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now, updated_by: by.slice(0, 64) }))
    .execute();
}
