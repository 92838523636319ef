/** The member side of withdrawals: a member asks to withdraw or extract (the simulator, demo data, tests). */
import { BillType } from '../../../domain/bills';
import { chainAddressMessage, isChainAddress, type Chain } from '../../../domain/deposits';
import { MemberStatus } from '../../../domain/members';
import { feeOf, formatAsset } from '../../../domain/money';
import { SHANGHAI_OFFSET } from '../../../domain/time';
import { WithdrawAsset, WithdrawStatus, withinOpenHours, type WithdrawType } from '../../../domain/withdrawals';
import type { Ctx } from '../../context';
import { badInput } from '../../errors';
import { countedTransaction } from '../../db/counterMoves';
import { applyChange } from '../ledger/ledger.service';
import { getSetting } from '../settings/settings.service';
import { amountOf, rateOf } from '../../http/amounts';
import { countRequestsSince, insertWithdrawal, lockMember } from './withdrawals.repository';
import { typeLabel, WithdrawMessages } from './withdrawals.service';
import { settingKey } from './withdrawSettings.service';

type WType = WithdrawType;

export interface RequestWithdrawalInput {
  memberId: number;
  type: WType;
  amount: string;
  chain: Chain;
  address: string;
}

/** Start of the Shanghai day containing `now`, as epoch ms. */
export const shanghaiDayStart = (now: number) => now - ((now + SHANGHAI_OFFSET) % 86_400_000);

/**
 * Member side: asks to withdraw. Refuses when the type is closed, outside its open hours, below the
 * minimum or above the maximum, over the daily count, or when the member is frozen or banned from
 * withdrawing; the fee is max(amount × rate rounded up, fee minimum). Freezes the amount (bill
 * 提现冻结); at or under the auto-approve ceiling the request starts approved (待打款).
 */
export async function requestWithdrawal(ctx: Ctx, input: RequestWithdrawalInput) {
  const type = input.type;
  const asset = WithdrawAsset[type];
  const label = typeLabel(type);
  const s = await getSetting(ctx.db, settingKey(type));
  const now = ctx.clock.now();
  if (!s.open) throw badInput(`${label}通道已关闭`);
  const minuteOfDay = Math.floor(((now + SHANGHAI_OFFSET) % 86_400_000) / 60_000);
  if (!withinOpenHours(s.openHours, minuteOfDay)) throw badInput(`${label}开放时间为${s.openHours}`);
  const address = input.address.trim();
  if (!isChainAddress(input.chain, address)) throw badInput(chainAddressMessage(input.chain));
  const amount = amountOf(input.amount, asset, `${label}金额`);
  const min = amountOf(s.min, asset, '单笔最低金额', { allowZero: true });
  const max = amountOf(s.max, asset, '单笔最高金额', { allowZero: true });
  if (amount < min) throw badInput(`${label}金额不能低于${s.min}`);
  if (max !== 0n && amount > max) throw badInput(`${label}金额不能高于${s.max}`);
  const fee = feeOf(
    amount,
    rateOf(s.feeRate, '手续费率'),
    amountOf(s.feeMin, asset, '最低手续费', { allowZero: true }),
  );
  if (fee >= amount) throw badInput(`${label}金额不足以支付手续费`);
  const ceiling = amountOf(s.autoApproveMax, asset, '自动审核额度', { allowZero: true });
  const auto = ceiling > 0n && amount <= ceiling;
  return countedTransaction(ctx.db, async (trx, counts) => {
    const member = await lockMember(trx, input.memberId);
    if (!member) throw badInput(WithdrawMessages.memberMissing);
    if (member.status === MemberStatus.is.frozen) throw badInput(WithdrawMessages.memberFrozen);
    if (member.status === MemberStatus.is.noWithdraw) throw badInput(WithdrawMessages.memberBanned);
    if (s.maxTimesPerDay > 0) {
      const used = await countRequestsSince(trx, input.memberId, type, shanghaiDayStart(now));
      if (used >= s.maxTimesPerDay) throw badInput(`每日最多${label}${s.maxTimesPerDay}次`);
    }
    const status = auto ? WithdrawStatus.is.approved : WithdrawStatus.is.pending;
    const id = await insertWithdrawal(trx, counts, {
      memberId: input.memberId,
      type,
      asset,
      amount,
      fee,
      chain: input.chain,
      address,
      status,
      now,
      autoApproved: auto,
    });
    await applyChange(
      trx,
      {
        memberId: input.memberId,
        asset,
        available: -amount,
        frozen: amount,
        type: BillType.withdrawFreeze,
        ref: { kind: 'withdrawal', id },
        remark: `${label}冻结 #${id}`,
      },
      now,
    );
    return {
      id,
      status: status as 0 | 1,
      fee: formatAsset(fee, asset),
      actual: formatAsset(amount - fee, asset),
      statusLabel: WithdrawStatus.label(status),
    };
  });
}
