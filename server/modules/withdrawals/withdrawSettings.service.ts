/** Withdrawal and extract settings (limits, fee, open hours) and payout wallets, one pair of keys per type. */
import { formatMinor, RATE_DECIMALS, ratePercentText } from '../../../domain/money';
import { isChainAddress, chainAddressMessage, type Chain } from '../../../domain/deposits';
import { parseOpenHours, WithdrawAsset, type WithdrawType } from '../../../domain/withdrawals';
import type { Actor, Ctx } from '../../context';
import { badInput } from '../../errors';
import { managerAction } from '../oplog/managerAction';
import { getSettingWithMeta, putSetting, type WithdrawSetting } from '../settings/settings.service';
import { amountOf, canonicalAmount, rateOf } from '../../http/amounts';
import { typeLabel, WithdrawMessages } from './withdrawals.service';

type WType = WithdrawType;

export const settingKey = (type: WType) => `withdraw.${type}` as const;
const accountKey = (type: WType) => `withdrawAccount.${type}` as const;

export async function getWithdrawSetting(ctx: Ctx, type: WType) {
  const [s, a] = await Promise.all([
    getSettingWithMeta(ctx.db, settingKey(type)),
    getSettingWithMeta(ctx.db, accountKey(type)),
  ]);
  return {
    type,
    asset: WithdrawAsset[type],
    ...s.value,
    ...s.meta,
    account: { ...a.value, ...a.meta },
  };
}

export async function saveWithdrawSetting(ctx: Ctx, actor: Actor, input: WithdrawSetting & { type: WType }) {
  const asset = WithdrawAsset[input.type];
  const value: WithdrawSetting = {
    open: input.open,
    min: canonicalAmount(input.min, asset, '单笔最低金额'),
    max: canonicalAmount(input.max, asset, '单笔最高金额', { allowZero: true }),
    maxTimesPerDay: input.maxTimesPerDay,
    feeRate: '',
    feeMin: canonicalAmount(input.feeMin, asset, '最低手续费', { allowZero: true }),
    autoApproveMax: canonicalAmount(input.autoApproveMax, asset, '自动审核额度', { allowZero: true }),
    openHours: input.openHours,
  };
  const rate = rateOf(input.feeRate, '手续费率');
  value.feeRate = formatMinor(rate, RATE_DECIMALS);
  const max = amountOf(value.max, asset, '单笔最高金额', { allowZero: true });
  if (max !== 0n && max < amountOf(value.min, asset, '单笔最低金额')) throw badInput(WithdrawMessages.maxBelowMin);
  if (!parseOpenHours(value.openHours)) throw badInput(WithdrawMessages.badOpenHours);
  const label = typeLabel(input.type);
  await managerAction(ctx, actor, async ({ trx, now }) => {
    await putSetting(trx, settingKey(input.type), value, actor.username, now);
    return {
      result: null,
      log: {
        code: 'withdrawSetting:update',
        target: `setting:${settingKey(input.type)}`,
        summary:
          `修改${label}设置：${value.open ? '开启' : '关闭'}，单笔 ${value.min}–${value.max === '0' ? '不限' : value.max} ${asset}，` +
          `每日 ${value.maxTimesPerDay || '不限'} 次，费率 ${ratePercentText(value.feeRate)}，最低手续费 ${value.feeMin}，` +
          `自动审核额度 ${value.autoApproveMax}，开放时间 ${value.openHours}`,
      },
    };
  });
  return getWithdrawSetting(ctx, input.type);
}

export async function saveWithdrawAccount(
  ctx: Ctx,
  actor: Actor,
  input: { type: WType; chain: Chain; address: string; remark?: string },
) {
  const address = input.address.trim();
  if (!isChainAddress(input.chain, address)) throw badInput(chainAddressMessage(input.chain));
  await managerAction(ctx, actor, async ({ trx, now }) => {
    await putSetting(
      trx,
      accountKey(input.type),
      { chain: input.chain, address, remark: (input.remark ?? '').trim() },
      actor.username,
      now,
    );
    return {
      result: null,
      log: {
        code: 'withdrawSetting:update',
        target: `setting:${accountKey(input.type)}`,
        summary: `修改${typeLabel(input.type)}出款钱包：${input.chain} ${address}`,
      },
    };
  });
  return getWithdrawSetting(ctx, input.type);
}
