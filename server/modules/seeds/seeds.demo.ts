/**
 * Demo seeds (DOMAIN.md §4): ~300 seeds of every source (商城购买, 后台赠送, 活动奖励) granted through
 * grantSeed over the last 60 days, on a clock of this step's own, so their start days spread out and
 * the settlement job (which catches up missed days) leaves some growing and some matured. Randomness is
 * seeded: the same database gets the same demo data. Members come from the member table; none → nothing.
 */
import type { Ctx } from '../../context';
import { grantSeed } from './seeds.service';
import { seededRandom as random } from '../../seed/random';

const DAY = 86_400_000;
const NAMES = ['红杉种子', '银杏种子', '松柏种子', '香樟种子', '玉兰种子', '桂花种子'];
const DAYS = [7, 10, 15, 30, 45, 60, 90];

export interface SeedsDemoSize {
  seeds: number;
  /** Over how many past days the seeds were granted. */
  days: number;
}
export const SEEDS_DEMO_SIZE: SeedsDemoSize = { seeds: 300, days: 60 };

export async function seedSeedsDemo(ctx: Ctx, size: SeedsDemoSize = SEEDS_DEMO_SIZE): Promise<void> {
  if (await ctx.db.selectFrom('seed').select('id').limit(1).executeTakeFirst()) return;
  const members = await ctx.db.selectFrom('member').select('id').orderBy('id').limit(300).execute();
  if (!members.length) return;
  const rnd = random(20261125);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const end = ctx.clock.now();
  const step = (size.days * DAY) / Math.max(1, size.seeds);
  for (let i = 0; i < size.seeds; i += 1) {
    const at = Math.floor(end - size.days * DAY + i * step + rnd() * step * 0.9);
    const source = (i % 3) + 1;
    const whole = source === 1 ? pick([300, 500, 1000, 2000, 5000]) : pick([50, 100, 200, 300]);
    await grantSeed(
      ctx,
      {
        memberId: Number(pick(members).id),
        name: pick(NAMES),
        source,
        totalEnergy: BigInt(whole * 100 + Math.floor(rnd() * 100)),
        days: pick(DAYS),
      },
      at,
    );
  }
}
