/** The member side of pledges (what the member app would call; demo data, the simulator and tests use it). */
import { BillType } from '../../../domain/bills';
import { pledgeTerms } from '../../../domain/economy';
import { MemberStatus } from '../../../domain/members';
import { formatAsset } from '../../../domain/money';
import { PledgeMessages, PledgeModeStatus } from '../../../domain/pledge';
import type { Ctx } from '../../context';
import { countedTransaction } from '../../db/counterMoves';
import { dateOfDay, dayOf } from '../../db/dayBuckets';
import { badInput } from '../../errors';
import { applyChange } from '../ledger/ledger.service';
import { findMode } from './modes.repository';
import { insertPledge, lockMember } from './pledge.repository';

export interface PledgeInput {
  memberId: number;
  modeId: number;
  /** LZ minor units. */
  amount: bigint;
}

/**
 * Member side: pledges `amount` LZ on a mode. Refuses a missing or disabled mode, an amount outside
 * its min/max, a missing or frozen member and a short balance (可用余额不足); creates the record with
 * the mode's terms (domain/economy.ts) and moves the LZ out of available (bill 质押锁定) in one
 * transaction. Day S = the Asia/Shanghai day of `now`; the record earns on S+1 … S+days.
 */
export async function pledge(ctx: Ctx, input: PledgeInput, now: number = ctx.clock.now()) {
  const mode = await findMode(ctx.db, input.modeId);
  if (!mode) throw badInput(PledgeMessages.modeNotFound);
  if (Number(mode.status) !== PledgeModeStatus.is.enabled) throw badInput(PledgeMessages.modeDisabled);
  const min = BigInt(mode.min_amount);
  const max = BigInt(mode.max_amount);
  if (input.amount < min) throw badInput(`质押数量不能低于${formatAsset(min, 'LZ')}`);
  if (input.amount > max) throw badInput(`质押数量不能高于${formatAsset(max, 'LZ')}`);
  const rate = BigInt(mode.rate);
  const days = Number(mode.days);
  const terms = pledgeTerms(input.amount, rate, days);
  const startDay = dayOf(now);
  return countedTransaction(ctx.db, async (trx, counts) => {
    const member = await lockMember(trx, input.memberId);
    if (!member) throw badInput(PledgeMessages.memberMissing);
    if (member.status === MemberStatus.is.frozen) throw badInput(PledgeMessages.memberFrozen);
    const id = await insertPledge(trx, counts, {
      memberId: input.memberId,
      modeId: Number(mode.id),
      modeName: mode.name,
      amount: input.amount,
      rate,
      days,
      dailyYield: terms.daily,
      totalYield: terms.total,
      startDay,
      now,
    });
    await applyChange(
      trx,
      {
        memberId: input.memberId,
        asset: 'LZ',
        available: -input.amount,
        type: BillType.pledgeLock,
        ref: { kind: 'pledge', id },
        remark: `质押锁定 #${id}（${mode.name}）`,
      },
      now,
    );
    return {
      id,
      modeName: mode.name,
      amount: formatAsset(input.amount, 'LZ'),
      dailyYield: formatAsset(terms.daily, 'LZ'),
      totalYield: formatAsset(terms.total, 'LZ'),
      startDate: dateOfDay(startDay),
      endDate: dateOfDay(startDay + days),
    };
  });
}
