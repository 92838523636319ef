/** Demo data for a new database, made through the same services real changes use (DOMAIN.md §4). */
import type { Ctx } from '../context';
import { seedSystemDemo } from '../modules/system/system.demo';
import { seedMembersDemo } from '../modules/members/members.demo';
import { seedPaymentsTransfersDemo } from '../modules/payments/payments.demo';
import { seedMoneyDemo } from '../modules/withdrawals/money.demo';
import { seedSeedsDemo } from '../modules/seeds/seeds.demo';
import { seedMatchesDemo } from '../modules/matches/matches.demo';
import { seedPledgeDemo } from '../modules/pledge/pledge.demo';
import { seedMallDemo } from '../modules/mall/mall.demo';
import { seedContentDemo } from '../modules/content/content.demo';

/** Each module adds its part here; they run in order so later ones can use earlier data. */
export const demoSteps: Array<{ name: string; run: (ctx: Ctx) => Promise<void> }> = [
  { name: 'system: roles and managers', run: seedSystemDemo },
  { name: 'members: zones and members', run: seedMembersDemo },
  { name: 'members: payment methods and transfers', run: seedPaymentsTransfersDemo },
  { name: 'money: receiving addresses, deposits, withdrawals and extracts', run: (ctx) => seedMoneyDemo(ctx) },
  { name: 'seeds: seeds of every source', run: (ctx) => seedSeedsDemo(ctx) },
  { name: 'matches: matches in every status', run: (ctx) => seedMatchesDemo(ctx) },
  // Before the pledges: their step runs the daily settlement through the past days, which then releases
  // the seeds the mall's past orders granted too (after it, those seeds waited for the next run).
  { name: 'mall: products with images, orders in every status', run: (ctx) => seedMallDemo(ctx) },
  { name: 'pledge: modes, pledges and their daily settlement', run: (ctx) => seedPledgeDemo(ctx) },
  { name: 'content: notices, both texts and a month of LZ prices', run: (ctx) => seedContentDemo(ctx) },
];

export async function seedDemoData(ctx: Ctx): Promise<void> {
  for (const step of demoSteps) {
    const t = Date.now();
    await step.run(ctx);
    ctx.log.info(`demo data: ${step.name} (${Date.now() - t} ms)`);
  }
}
