/**
 * Demo matches (DOMAIN.md §4): ~150 matches in every status, made through the member-side services
 * (openMatch, markPaid, confirmReceipt, appeal, expireMatches) and the manager's arbitrate, so every LZ
 * movement has its bill and every arbitration its op-log row. Sellers are members with an approved
 * payment method (the payments step runs first), funded with LZ through the ledger when short; proof
 * images are small PNGs this step writes into the upload folder (/uploads/demo/match-proof-N.png), so
 * the preview on the page shows a real image. Times walk through the last 30 days on a clock of this
 * step's own; the unpaid ones are opened in the last minutes so they are still waiting for payment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { BillType } from '../../../domain/bills';
import type { Actor, Ctx } from '../../context';
import { AppError } from '../../errors';
import { ADMIN_USERNAME } from '../../seed/bootstrap';
import { applyChange, balancesOf } from '../ledger/ledger.service';
import { listPaymentMethods } from '../payments/payments.service';
import { appeal, arbitrate, confirmReceipt, expireMatches, markPaid, openMatch } from './matches.service';
import { seededRandom as random } from '../../seed/random';

const DAY = 86_400_000;
const MIN = 60_000;
const PROOFS = 4;

export interface MatchesDemoSize {
  matches: number;
  days: number;
}
export const MATCHES_DEMO_SIZE: MatchesDemoSize = { matches: 150, days: 30 };

const APPEALS = [
  '已按收款方式付款，卖家迟迟不确认收款',
  '买家上传的付款凭证金额不符',
  '卖家收款账户异常，无法付款',
  '付款后卖家联系不上',
  '未收到买家付款，凭证疑似伪造',
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 240×360 PNG that looks like a transfer receipt: a coloured header band and grey "text" lines. */
export function proofPng(hue: number): Buffer {
  const w = 240;
  const h = 360;
  const header: [number, number, number] = [
    [22, 119, 255],
    [7, 193, 96],
    [250, 140, 22],
    [114, 46, 209],
  ][hue % 4] as [number, number, number];
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y += 1) {
    const row = y * (w * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < w; x += 1) {
      let px: [number, number, number] = [255, 255, 255];
      if (y < 70) px = header;
      else if (y > 110 && y < 290 && (y - 110) % 30 < 10 && x > 20 && x < 220 - ((y * 7) % 60)) px = [200, 200, 200];
      else if (y >= 300 && y < 330 && x > 60 && x < 180) px = header;
      raw.set(px, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes the demo proof images (when missing) and returns their public URLs. */
export function writeProofImages(uploadDir: string): string[] {
  const dir = path.join(uploadDir, 'demo');
  const urls: string[] = [];
  for (let k = 1; k <= PROOFS; k += 1) {
    const file = path.join(dir, `match-proof-${k}.png`);
    try {
      if (!fs.existsSync(file)) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(file, proofPng(k));
      }
    } catch {
      // A read-only upload folder: the URLs still work once someone puts the files there.
    }
    urls.push(`/uploads/demo/match-proof-${k}.png`);
  }
  return urls;
}

type Fate = 'unpaid' | 'paid' | 'confirmed' | 'expired' | 'appealed' | 'arbitratedDone' | 'arbitratedCancel';

export async function seedMatchesDemo(ctx: Ctx, size: MatchesDemoSize = MATCHES_DEMO_SIZE): Promise<void> {
  if (await ctx.db.selectFrom('match_trade').select('id').limit(1).executeTakeFirst()) return;
  const admin = await ctx.db
    .selectFrom('manager')
    .select(['id', 'username'])
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirst();
  const { list: methods } = await listPaymentMethods(ctx, { status: 1, size: 100 });
  const sellers = [...new Set(methods.map((m) => m.memberId))];
  const members = await ctx.db.selectFrom('member').select('id').orderBy('id').limit(300).execute();
  if (!admin || !sellers.length || members.length < 2) return;
  const actor: Actor = { managerId: Number(admin.id), username: admin.username, ip: '127.0.0.1' };
  const proofs = writeProofImages(ctx.config.uploadDir);
  const rnd = random(20261126);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const at = (time: number): Ctx => ({ ...ctx, clock: { now: () => time } });
  const end = ctx.clock.now();
  const fates: Fate[] = [
    'confirmed',
    'confirmed',
    'confirmed',
    'expired',
    'appealed',
    'appealed',
    'arbitratedDone',
    'arbitratedCancel',
    'paid',
  ];
  const unpaid = Math.max(1, Math.round(size.matches / 8));
  const older = size.matches - unpaid;
  const step = ((size.days * DAY) / Math.max(1, older)) * 0.97;
  for (let i = 0; i < size.matches; i += 1) {
    const fate: Fate = i >= older ? 'unpaid' : fates[i % fates.length];
    let t = i >= older ? end - Math.floor(rnd() * 25 * MIN) - MIN : Math.floor(end - size.days * DAY + i * step);
    const sellerId = pick(sellers);
    let buyerId = Number(pick(members).id);
    if (buyerId === sellerId)
      buyerId = Number(members[(members.findIndex((m) => Number(m.id) === sellerId) + 1) % members.length].id);
    const quantity = BigInt(pick([50, 100, 200, 500, 1000, 2000])) * 10_000n + BigInt(Math.floor(rnd() * 10_000));
    const unitPrice = BigInt(400_000 + Math.floor(rnd() * 200_000)); // 0.4–0.6 USDT per LZ
    try {
      const lz = (await balancesOf(ctx.db, sellerId)).LZ.available;
      if (lz < quantity) {
        await ctx.db.transaction().execute((trx) =>
          applyChange(
            trx,
            {
              memberId: sellerId,
              asset: 'LZ',
              available: quantity * 3n,
              type: BillType.adminAdjust,
              remark: '演示数据：撮合卖出的LZ',
            },
            t - MIN,
          ),
        );
      }
      const m = await openMatch(at(t), { sellerId, buyerId, quantity, unitPrice });
      const proofUrl = pick(proofs);
      const later = (maxMinutes: number) => (t += MIN + Math.floor(rnd() * maxMinutes * MIN));
      if (fate === 'unpaid') continue;
      if (fate === 'expired') {
        await expireMatches(at(m.expiresAt), m.expiresAt);
        continue;
      }
      const paysFirst = fate !== 'appealed' || rnd() < 0.6;
      if (paysFirst) await markPaid(at(later(20)), { matchId: m.id, buyerId, proofUrl });
      if (fate === 'paid') continue;
      if (fate === 'confirmed') {
        await confirmReceipt(at(later(120)), { matchId: m.id, sellerId });
        continue;
      }
      const bySeller = !paysFirst || rnd() < 0.4;
      await appeal(at(later(180)), {
        matchId: m.id,
        memberId: bySeller ? sellerId : buyerId,
        reason: pick(APPEALS),
      });
      if (fate === 'arbitratedDone') {
        await arbitrate(at(later(600)), actor, { id: m.id, action: 'complete', remark: '核实买家已付款，判定成交' });
      } else if (fate === 'arbitratedCancel') {
        await arbitrate(at(later(600)), actor, { id: m.id, action: 'cancel', remark: '买家未能提供有效付款凭证' });
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
}
